/// A position in a sectioned collection: which section, and which item inside it.
///
/// Kept apart from identifiers on purpose: index paths are for the view and its delegate
/// callbacks; updates name items by identifier, never by index path (seed 002).
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The item's index inside its section.
    public var item: Int

    /// The path of item `item` of section `section`.
    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    /// Section first, then item: the order batch updates list changes in.
    /// - Complexity: O(1).
    public static func < (a: ItemPath, b: ItemPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    public var description: String { "[\(section), \(item)]" }
}

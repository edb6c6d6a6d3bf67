/// The truth of what a collection view shows: sections and items, by identifier.
///
/// A value: copies are O(1) (the storage is copy-on-write) and changing a copy never
/// touches the original, which is why `DiffableDataSource.snapshot()` can hand one out.
/// Identifiers must be unique across the whole snapshot; position lookups in both
/// directions (identifier ↔ ``ItemPath``) are O(1) because the maps are kept current by
/// every mutation.
///
/// Misuse traps with a message naming the identifier and the operation; every mutation
/// has a `try` twin that throws ``SnapshotError`` instead, for data that comes from users.
public struct Snapshot<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    var sectionIDs: [SectionID] = []
    @usableFromInline var items: [[ItemID]] = []
    var sectionIndexByID: [SectionID: Int] = [:]
    var pathByItem = ItemPathIndex<ItemID>()
    /// Global index of each section's first item; `sectionStarts.count == sectionIDs.count`.
    var sectionStarts: [Int] = []
    var reloadedItems = OrderedSetOfIDs<ItemID>()
    var reconfiguredItems = OrderedSetOfIDs<ItemID>()
    var reloadedSections = OrderedSetOfIDs<SectionID>()

    /// An empty snapshot: no sections, no items.
    /// - Complexity: O(1).
    public init() {}

    // MARK: Queries

    /// - Complexity: O(1).
    public var numberOfItems: Int {
        @_specialize(exported: true, where SectionID == Int, ItemID == Int)
        get { pathByItem.count }
    }

    /// - Complexity: O(1).
    public var numberOfSections: Int { sectionIDs.count }

    /// - Complexity: O(1).
    public var sectionIdentifiers: [SectionID] { sectionIDs }

    /// Every item, section after section.
    /// - Complexity: O(n) in the number of items (the array is built on each call).
    public var itemIdentifiers: [ItemID] { items.flatMap { $0 } }

    /// - Complexity: O(1) for the lookup; traps when the section is not in the snapshot.
    public func numberOfItems(inSection section: SectionID) -> Int {
        items[requireSection(section, "numberOfItems(inSection:)")].count
    }

    /// - Complexity: O(1) (the section's array is shared, not copied).
    public func itemIdentifiers(inSection section: SectionID) -> [ItemID] {
        items[requireSection(section, "itemIdentifiers(inSection:)")]
    }

    /// The section holding `item`, or nil when the item is not in the snapshot.
    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func sectionIdentifier(containingItem item: ItemID) -> SectionID? {
        pathByItem[item].map { sectionIDs[$0.section] }
    }

    /// Position of `item` among all items (as in ``itemIdentifiers``), or nil.
    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func indexOfItem(_ item: ItemID) -> Int? {
        pathByItem[item].map { sectionStarts[$0.section] + $0.item }
    }

    /// - Complexity: O(1).
    public func indexOfSection(_ section: SectionID) -> Int? {
        sectionIndexByID[section]
    }

    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func indexPath(for item: ItemID) -> ItemPath? {
        pathByItem[item]
    }

    /// The item at `indexPath`, or nil when the path is outside the snapshot.
    /// - Complexity: O(1). Inlinable: a collection view asks it for every visible and
    ///   prepared cell each frame, and called across modules unspecialised it looked up the
    ///   snapshot's generic metadata at run time each time (D-064).
    @inlinable
    public func itemIdentifier(at indexPath: ItemPath) -> ItemID? {
        guard items.indices.contains(indexPath.section),
              items[indexPath.section].indices.contains(indexPath.item) else { return nil }
        return items[indexPath.section][indexPath.item]
    }

    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func contains(item: ItemID) -> Bool { pathByItem[item] != nil }

    /// - Complexity: O(1).
    public func contains(section: SectionID) -> Bool { sectionIndexByID[section] != nil }

    /// Items marked with ``reloadItems(_:)``, in the order they were marked.
    /// - Complexity: O(1).
    public var reloadedItemIdentifiers: [ItemID] { reloadedItems.elements }

    /// Items marked with ``reconfigureItems(_:)``, in the order they were marked.
    /// - Complexity: O(1).
    public var reconfiguredItemIdentifiers: [ItemID] { reconfiguredItems.elements }

    /// Sections marked with ``reloadSections(_:)``, in the order they were marked.
    /// - Complexity: O(1).
    public var reloadedSectionIdentifiers: [SectionID] { reloadedSections.elements }

    /// The same content with no reload or reconfigure marks: what a data source keeps
    /// once it has applied them.
    /// - Complexity: O(1).
    public func clearingUpdateMarks() -> Snapshot {
        var copy = self
        copy.reloadedItems = .init()
        copy.reconfiguredItems = .init()
        copy.reloadedSections = .init()
        return copy
    }

    func requireSection(_ section: SectionID, _ operation: String) -> Int {
        guard let index = sectionIndexByID[section] else {
            preconditionFailure(SnapshotError.sectionNotFound(section: SnapshotError.name(section), operation: operation).description)
        }
        return index
    }
}

extension Snapshot: Equatable {
    /// Equal when sections, items and update marks are equal.
    /// - Complexity: O(n).
    public static func == (a: Snapshot, b: Snapshot) -> Bool {
        a.sectionIDs == b.sectionIDs && a.items == b.items && a.reloadedItems == b.reloadedItems
            && a.reconfiguredItems == b.reconfiguredItems && a.reloadedSections == b.reloadedSections
    }
}

extension Snapshot: CustomStringConvertible {
    /// Sections and their items, for logs and test failures.
    /// - Complexity: O(n).
    public var description: String {
        "Snapshot(" + zip(sectionIDs, items).map { "\($0): \($1)" }.joined(separator: "; ") + ")"
    }
}

/// A small insertion-ordered set for update marks.
struct OrderedSetOfIDs<Element: Hashable & Sendable>: Hashable, Sendable {
    private(set) var elements: [Element] = []
    private var members: Set<Element> = []

    func contains(_ element: Element) -> Bool { members.contains(element) }

    mutating func insert(_ element: Element) {
        if members.insert(element).inserted { elements.append(element) }
    }

    mutating func remove(where shouldRemove: (Element) -> Bool) {
        guard elements.contains(where: shouldRemove) else { return }
        elements.removeAll(where: shouldRemove)
        members = Set(elements)
    }

    static func == (a: Self, b: Self) -> Bool { a.elements == b.elements }
    func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

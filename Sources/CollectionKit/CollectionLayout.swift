import CellCanvas
import DiffableData

/// Where a collection view's items and section headers sit, in content coordinates
/// (cells; `y` grows down from the first row).
///
/// The view calls ``prepare(width:sectionCounts:)`` whenever its width or its data
/// changes, then asks for frames and for the items a band of rows shows, every frame.
/// Those two questions are on the frame's critical path, so an implementation answers them
/// without walking every item: ``GridLayout`` and ``ListLayout`` keep only section tops and
/// find what a band shows by a binary search over them.
public protocol CollectionLayout: Sendable {
    /// Recomputes the geometry for a width (in cells) and the number of items in each section.
    mutating func prepare(width: Int, sectionCounts: [Int])

    /// Rows of content, from the first section's top to the last section's end.
    var contentHeight: Int { get }

    /// Items side by side in one row (1 for a list): what moving the selection up or down
    /// skips over.
    var columns: Int { get }

    /// The rows one more row of items takes (its height plus the spacing below it): the
    /// least the view prepares ahead of the viewport.
    var rowPitch: Int { get }

    /// The width of the items in column `column` (0-based).
    func itemWidth(column: Int) -> Int

    /// The frame of the item at `path`, which must exist in the counts last prepared.
    func frame(for path: ItemPath) -> Rect

    /// The frame of a section's header, or `nil` when the layout draws no headers.
    func headerFrame(section: Int) -> Rect?

    /// The paths of the items that intersect content rows `top..<bottom`, in order.
    func indexPaths(inRows top: Int, _ bottom: Int) -> [ItemPath]
}

extension CollectionLayout {
    /// The width of the narrowest column (the last): what content made for any column fits.
    public var narrowestItemWidth: Int { itemWidth(column: columns - 1) }
}

extension CollectionLayout where Self == ListLayout {
    /// A list: one item a row, as wide as the view (`layout: .list(itemHeight: 3)`).
    public static func list(itemHeight: Int, spacing: Int = 0, headerHeight: Int = 0) -> ListLayout {
        ListLayout(itemHeight: itemHeight, spacing: spacing, headerHeight: headerHeight)
    }
}

extension CollectionLayout where Self == GridLayout {
    /// A grid whose column count follows the width (`layout: .grid(minimumItemWidth: 28, itemHeight: 8)`).
    public static func grid(minimumItemWidth: Int, itemHeight: Int, spacing: Int = 1, headerHeight: Int = 0) -> GridLayout {
        GridLayout(minimumItemWidth: minimumItemWidth, itemHeight: itemHeight, spacing: spacing, headerHeight: headerHeight)
    }
}

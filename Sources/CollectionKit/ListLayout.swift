import CellCanvas
import DiffableData

/// A list: one item a row, as wide as the view, every item `itemHeight` rows high.
///
/// The grid's arithmetic with one column, whatever the width: the same section tops, the
/// same binary search. A layout of its own so that a list says what it is at the call site
/// (`layout: .list(itemHeight: 1)`) and never grows a second column when the view widens.
public struct ListLayout: CollectionLayout, Equatable {
    private var grid: GridLayout

    /// A list of items `itemHeight` rows high, `spacing` blank rows apart, with
    /// `headerHeight` rows above each section's items.
    public init(itemHeight: Int, spacing: Int = 0, headerHeight: Int = 0) {
        grid = GridLayout(minimumItemWidth: 1, itemHeight: itemHeight, spacing: spacing, headerHeight: headerHeight)
        grid.isList = true
    }

    /// The height of every item, in rows.
    public var itemHeight: Int { grid.itemHeight }
    /// Blank rows between items.
    public var spacing: Int { grid.spacing }
    /// Rows above each section's items for its header (0: no headers).
    public var headerHeight: Int { grid.headerHeight }

    /// - Complexity: O(sections).
    public mutating func prepare(width: Int, sectionCounts: [Int]) { grid.prepare(width: width, sectionCounts: sectionCounts) }
    public var contentHeight: Int { grid.contentHeight }
    /// Always 1.
    public var columns: Int { 1 }
    public var rowPitch: Int { grid.rowPitch }
    /// The view's width, whatever `column`.
    public func itemWidth(column: Int) -> Int { grid.itemWidth(column: 0) }
    /// - Complexity: O(1).
    public func frame(for path: ItemPath) -> Rect { grid.frame(for: path) }
    /// - Complexity: O(1).
    public func headerFrame(section: Int) -> Rect? { grid.headerFrame(section: section) }
    /// - Complexity: O(log sections + items returned).
    public func indexPaths(inRows top: Int, _ bottom: Int) -> [ItemPath] { grid.indexPaths(inRows: top, bottom) }
}

import CellCanvas
import DiffableData

/// A grid whose column count follows the width: as many columns of at least
/// ``minimumItemWidth`` cells as fit, the spare width shared out among the first columns.
///
/// Items have a fixed height, so a section's geometry is arithmetic; only section tops are
/// stored (prefix sums), and finding what a rectangle shows is a binary search over them.
public struct GridLayout: CollectionLayout, Equatable {
    /// The least width of a column, in cells.
    public var minimumItemWidth: Int
    /// The height of every item, in rows.
    public var itemHeight: Int
    /// Blank columns between items and blank rows between item rows.
    public var spacing: Int
    /// Rows above each section's items for its header (0: no headers).
    public var headerHeight: Int

    /// The width last prepared for.
    public private(set) var width = 0
    /// Columns at the width last prepared for.
    public private(set) var columns = 1
    /// Rows of content at the width and counts last prepared for.
    public private(set) var contentHeight = 0
    private var sectionTops: [Int] = []
    private var sectionCounts: [Int] = []

    /// A grid of items at least `minimumItemWidth` wide and `itemHeight` high, `spacing`
    /// blank cells apart, with `headerHeight` rows above each section's items.
    public init(minimumItemWidth: Int, itemHeight: Int, spacing: Int = 1, headerHeight: Int = 0) {
        precondition(minimumItemWidth > 0 && itemHeight > 0 && spacing >= 0 && headerHeight >= 0,
                     "GridLayout needs positive item sizes and non-negative spacing and header height")
        self.minimumItemWidth = minimumItemWidth
        self.itemHeight = itemHeight
        self.spacing = spacing
        self.headerHeight = headerHeight
    }

    /// One column, whatever the width (what ``ListLayout`` is).
    var isList = false

    /// The rows one row of items takes with its spacing.
    public var rowPitch: Int { itemHeight + spacing }

    /// Recomputes for a width and the number of items in each section.
    /// - Complexity: O(sections).
    public mutating func prepare(width: Int, sectionCounts counts: [Int]) {
        self.width = max(width, 1)
        columns = isList ? 1 : max(1, (self.width + spacing) / (minimumItemWidth + spacing))
        sectionCounts = counts
        sectionTops = []
        sectionTops.reserveCapacity(counts.count)
        var top = 0
        for count in counts {
            sectionTops.append(top)
            top += sectionHeight(items: count)
        }
        contentHeight = top
    }

    /// Item rows a section of `items` takes, including its header and trailing spacing.
    private func sectionHeight(items: Int) -> Int {
        let itemRows = (items + columns - 1) / columns
        return headerHeight + (itemRows == 0 ? 0 : itemRows * (itemHeight + spacing))
    }

    /// Width of column `column`; the remainder of the division goes to the first columns.
    public func itemWidth(column: Int) -> Int {
        let usable = width - (columns - 1) * spacing
        return usable / columns + (column < usable % columns ? 1 : 0)
    }

    private func columnX(_ column: Int) -> Int {
        let usable = width - (columns - 1) * spacing
        let base = usable / columns, extra = usable % columns
        return column * (base + spacing) + min(column, extra)
    }

    /// The frame of an item in content coordinates (y grows down from the first row).
    /// - Complexity: O(1).
    public func frame(for indexPath: ItemPath) -> Rect {
        let row = indexPath.item / columns, column = indexPath.item % columns
        let y = sectionTops[indexPath.section] + headerHeight + row * (itemHeight + spacing)
        return Rect(x: columnX(column), y: y, width: itemWidth(column: column), height: itemHeight)
    }

    /// The header frame of a section, when headers are on.
    /// - Complexity: O(1).
    public func headerFrame(section: Int) -> Rect? {
        headerHeight > 0 ? Rect(x: 0, y: sectionTops[section], width: width, height: headerHeight) : nil
    }

    /// Index paths of the items that intersect content rows `top..<bottom`, in order.
    /// - Complexity: O(log sections + items returned).
    public func indexPaths(inRows top: Int, _ bottom: Int) -> [ItemPath] {
        guard bottom > top, !sectionTops.isEmpty else { return [] }
        var result: [ItemPath] = []
        var section = sectionIndex(containingRow: max(top, 0))
        while section < sectionTops.count, sectionTops[section] < bottom {
            let itemsTop = sectionTops[section] + headerHeight
            let pitch = itemHeight + spacing
            let count = sectionCounts[section]
            if count > 0 {
                let firstRow = max(0, (top - itemsTop) / pitch)
                let lastRow = min((count - 1) / columns, max(-1, (bottom - 1 - itemsTop) / pitch))
                if lastRow >= firstRow && bottom > itemsTop {
                    for row in firstRow...lastRow {
                        let rowTop = itemsTop + row * pitch
                        guard rowTop + itemHeight > top else { continue }
                        for column in 0..<columns {
                            let item = row * columns + column
                            if item < count { result.append(ItemPath(item: item, section: section)) }
                        }
                    }
                }
            }
            section += 1
        }
        return result
    }

    /// The section whose extent contains `row` (the last one for rows past the end).
    /// - Complexity: O(log sections).
    public func sectionIndex(containingRow row: Int) -> Int {
        var low = 0, high = sectionTops.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionTops[mid] <= row { low = mid } else { high = mid - 1 }
        }
        return max(low, 0)
    }
}

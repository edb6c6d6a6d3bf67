import CellCanvas
import DiffableData

/// Where items sit: a grid whose column count follows the width, or a list (one column).
///
/// Items have a fixed height, so a section's geometry is arithmetic; only section tops are
/// stored (prefix sums), and finding what a rectangle shows is a binary search over them.
public struct GridLayout: Sendable, Equatable {
    public var minimumItemWidth: Int
    public var itemHeight: Int
    /// Blank columns between items and blank rows between item rows.
    public var spacing: Int
    /// Rows above each section's items for its header (0: no headers).
    public var headerHeight: Int

    public private(set) var width = 0
    public private(set) var columns = 1
    public private(set) var contentHeight = 0
    private var sectionTops: [Int] = []
    private var sectionCounts: [Int] = []

    public init(minimumItemWidth: Int, itemHeight: Int, spacing: Int = 1, headerHeight: Int = 0) {
        precondition(minimumItemWidth > 0 && itemHeight > 0 && spacing >= 0 && headerHeight >= 0,
                     "GridLayout needs positive item sizes and non-negative spacing and header height")
        self.minimumItemWidth = minimumItemWidth
        self.itemHeight = itemHeight
        self.spacing = spacing
        self.headerHeight = headerHeight
    }

    /// One item per row, as wide as the view.
    public static func list(itemHeight: Int, spacing: Int = 0, headerHeight: Int = 0) -> GridLayout {
        GridLayout(minimumItemWidth: 1, itemHeight: itemHeight, spacing: spacing, headerHeight: headerHeight).asList()
    }

    private var isList = false

    private func asList() -> GridLayout {
        var copy = self
        copy.isList = true
        return copy
    }

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

    /// Width of the narrowest column (the last): what content made for "any column" fits.
    public var narrowestItemWidth: Int { itemWidth(column: columns - 1) }

    private func columnX(_ column: Int) -> Int {
        let usable = width - (columns - 1) * spacing
        let base = usable / columns, extra = usable % columns
        return column * (base + spacing) + min(column, extra)
    }

    /// The frame of an item in content coordinates (y grows down from the first row).
    /// - Complexity: O(1).
    public func frame(for indexPath: IndexPath) -> Rect {
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
    public func indexPaths(inRows top: Int, _ bottom: Int) -> [IndexPath] {
        guard bottom > top, !sectionTops.isEmpty else { return [] }
        var result: [IndexPath] = []
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
                            if item < count { result.append(IndexPath(item: item, section: section)) }
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

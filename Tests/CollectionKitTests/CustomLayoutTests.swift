import CellCanvas
import CollectionKit
import DiffableData
import Testing

/// A layout the module does not know: one section, item `i` is `1 + i % 3` rows high (a
/// list of variable heights, which neither GridLayout nor ListLayout can draw).
struct StaggeredList: CollectionLayout {
    private var tops: [Int] = [0]
    private var width = 0

    static func height(of item: Int) -> Int { 1 + item % 3 }

    mutating func prepare(width: Int, sectionCounts: [Int]) {
        self.width = width
        tops = [0]
        for item in 0..<(sectionCounts.first ?? 0) { tops.append(tops[item] + Self.height(of: item)) }
    }
    var contentHeight: Int { tops.last ?? 0 }
    var columns: Int { 1 }
    var rowPitch: Int { 1 }
    func itemWidth(column: Int) -> Int { width }
    func frame(for path: ItemPath) -> Rect { Rect(x: 0, y: tops[path.item], width: width, height: Self.height(of: path.item)) }
    func headerFrame(section: Int) -> Rect? { nil }
    func indexPaths(inRows top: Int, _ bottom: Int) -> [ItemPath] {
        (0..<tops.count - 1).filter { tops[$0] < bottom && tops[$0 + 1] > top }.map { ItemPath(item: $0, section: 0) }
    }
}

@Suite struct CustomLayoutTests {
    /// The view asks the layout for frames and for what a band of rows shows, and draws each
    /// cell in its frame: the rows on screen are the layout's, before and after a scroll.
    @Test func aLayoutOfOnesOwnPlacesTheCellsWhereItSays() {
        let list = ListFixture(count: 30, layout: StaggeredList(), rows: 10)
        list.frame()
        // Items 0 (1 row), 1 (2 rows), 2 (3 rows), 3 (1 row), 4 (2 rows), 5 (first row of 3).
        #expect(list.canvas.rowTexts.map { $0.trimmingCharacters(in: .whitespaces) } ==
                ["row 0", "row 1", "", "row 2", "", "", "row 3", "row 4", "", "row 5"])
        #expect(list.view.visibleCellCount == 6)
        list.frame { view, time in view.scroll(byRows: 6, at: time) }  // item 3 at the top
        #expect(list.canvas.rowTexts[0].hasPrefix("row 3"))
        #expect(list.view.layout.contentHeight == (0..<30).reduce(0) { $0 + StaggeredList.height(of: $1) })
    }

    /// A list stays one column however wide the view; a grid reflows.
    @Test func aListNeverGrowsASecondColumn() {
        var list = ListLayout(itemHeight: 2)
        var grid = GridLayout(minimumItemWidth: 10, itemHeight: 2, spacing: 0)
        list.prepare(width: 200, sectionCounts: [50])
        grid.prepare(width: 200, sectionCounts: [50])
        #expect(list.columns == 1 && grid.columns == 20)
        #expect(list.frame(for: ItemPath(item: 7, section: 0)) == Rect(x: 0, y: 14, width: 200, height: 2))
        #expect(list.indexPaths(inRows: 3, 7).map(\.item) == [1, 2, 3])
        #expect(list.contentHeight == 100)
    }
}

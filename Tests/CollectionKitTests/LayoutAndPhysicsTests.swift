import Foundation
import CellCanvas
import CollectionKit
import DiffableData
import Testing

@Suite struct GridLayoutTests {
    @Test func columnsFollowTheWidthAndFramesTileIt() {
        var layout = GridLayout(minimumItemWidth: 30, itemHeight: 5, spacing: 1)
        layout.prepare(width: 100, sectionCounts: [10])
        #expect(layout.columns == 3)  // 3·30 + 2 spacing ≤ 100 < 4·30 + 3
        #expect((0..<3).map { layout.itemWidth(column: $0) } == [33, 33, 32])
        #expect(layout.frame(for: ItemPath(item: 0, section: 0)) == Rect(x: 0, y: 0, width: 33, height: 5))
        #expect(layout.frame(for: ItemPath(item: 2, section: 0)) == Rect(x: 68, y: 0, width: 32, height: 5))
        #expect(layout.frame(for: ItemPath(item: 4, section: 0)) == Rect(x: 34, y: 6, width: 33, height: 5))
        #expect(layout.contentHeight == 4 * 6)
        layout.prepare(width: 20, sectionCounts: [10])
        #expect(layout.columns == 1 && layout.itemWidth(column: 0) == 20)
    }

    @Test func sectionsWithHeadersAndVisibleQueries() {
        var layout = GridLayout(minimumItemWidth: 10, itemHeight: 2, spacing: 0, headerHeight: 1)
        layout.prepare(width: 20, sectionCounts: [3, 0, 4])
        // Section 0: header row 0, items rows 1–4 (two item rows); section 1: header row 5; section 2: header 6, items 7–10.
        #expect(layout.headerFrame(section: 2) == Rect(x: 0, y: 6, width: 20, height: 1))
        #expect(layout.frame(for: ItemPath(item: 3, section: 2)) == Rect(x: 10, y: 9, width: 10, height: 2))
        #expect(layout.contentHeight == 11)
        #expect(layout.indexPaths(inRows: 0, 2) == [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
        #expect(layout.indexPaths(inRows: 4, 8) == [ItemPath(item: 2, section: 0), ItemPath(item: 0, section: 2), ItemPath(item: 1, section: 2)])
        #expect(layout.indexPaths(inRows: 11, 20).isEmpty)
    }

    /// Every item a brute-force scan finds intersecting the rows is returned, in order.
    @Test func visibleQueryMatchesABruteForceScan() {
        var layout = GridLayout(minimumItemWidth: 7, itemHeight: 3, spacing: 1, headerHeight: 2)
        let counts = [5, 0, 17, 1, 9]
        layout.prepare(width: 30, sectionCounts: counts)
        let all = counts.enumerated().flatMap { section, count in (0..<count).map { ItemPath(item: $0, section: section) } }
        for top in -3..<(layout.contentHeight + 2) {
            for height in [1, 4, 13] {
                let expected = all.filter { let f = layout.frame(for: $0); return f.y < top + height && f.maxY > top }
                #expect(layout.indexPaths(inRows: top, top + height) == expected, "rows \(top)..<\(top + height)")
            }
        }
    }

    @Test func aMillionItemsNeedOnlyTheVisibleWork() {
        var layout = GridLayout(minimumItemWidth: 40, itemHeight: 14, spacing: 1)
        layout.prepare(width: 200, sectionCounts: [1_000_000])
        #expect(layout.columns == 4)
        let middle = layout.contentHeight / 2
        let visible = layout.indexPaths(inRows: middle, middle + 60)
        #expect(visible.count <= 4 * 5)
        #expect(visible.allSatisfy { layout.frame(for: $0).maxY > middle })
        #expect(layout.list(itemHeightCheck: 3) == 1)
    }
}

extension GridLayout {
    fileprivate func list(itemHeightCheck height: Int) -> Int {
        var list = ListLayout(itemHeight: height)
        list.prepare(width: 200, sectionCounts: [5])
        return list.columns
    }
}

@Suite struct ScrollPhysicsTests {
    func physics(content: Int = 1000, viewport: Int = 50) -> ScrollPhysics {
        var physics = ScrollPhysics()
        physics.setSizes(content: content, viewport: viewport)
        return physics
    }

    @Test func animatedStepEasesToItsTargetInOneStepDuration() {
        var p = physics()
        p.step(by: 10, at: .zero)
        p.advance(to: .milliseconds(50))
        #expect(p.offset > 5 && p.offset < 10, "ease-out: more than half the way after a third of the time")
        #expect(p.direction == 1)
        p.advance(to: .milliseconds(150))
        #expect(p.offset == 10 && !p.isMoving)
        p.step(by: -3, at: .milliseconds(200))
        p.step(by: -3, at: .milliseconds(210))  // a second press extends the target
        p.advance(to: .seconds(1))
        #expect(p.offset == 4)
    }

    @Test func flingDeceleratesByUIScrollViewsRateAndStopsWhereTheFormulaSays() {
        var p = physics(content: 100_000)
        p.fling(speed: 600, at: .zero)
        p.advance(to: .milliseconds(100))
        #expect(abs(p.velocity - 600 * pow(0.998, 100)) < 1e-9)
        // Stepping in frames or in one go gives the same place (exact integration).
        var q = physics(content: 100_000)
        q.fling(speed: 600, at: .zero)
        for ms in stride(from: 8, through: 100, by: 8) { q.advance(to: .milliseconds(ms)) }
        q.advance(to: .milliseconds(100))
        #expect(abs(p.offset - q.offset) < 1e-9)
        for ms in stride(from: 100, through: 10_000, by: 16) { p.advance(to: .milliseconds(ms)) }
        #expect(!p.isMoving)
        #expect(abs(p.offset - ScrollPhysics.flingDistance(speed: 600)) < 1.0)
    }

    /// A fling ends on the frame the screen shows its last row, not when the speed falls to
    /// one row a second: its last 0 to 0.55 s move the offset within that row, which the
    /// screen (whole rows) never shows. The row it rests on is the one exact
    /// integration would have reached.
    @Test func aFlingEndsWhenTheScreenCanMoveNoFurther() {
        var p = physics(content: 100_000)
        p.fling(speed: 400, at: .zero)
        var ms = 0, lastRowChange = 0, row = 0
        while p.isMoving {
            ms += 8
            p.advance(to: .milliseconds(ms))
            if Int(p.offset) != row { (row, lastRowChange) = (Int(p.offset), ms) }
        }
        #expect(ms == lastRowChange, "the motion ended on the frame that showed its last row")
        let fullRest = ScrollPhysics.flingDistance(speed: 400) - ScrollPhysics.flingDistance(speed: ScrollPhysics.restingSpeed)
        #expect(row == Int(fullRest), "rests on row \(row), the whole fling reaches \(fullRest)")
        // Without the rule it moved on until the speed fell to a row a second (2,992 ms):
        // here that is 232 ms later, and up to 0.55 s where the last row is crossed sooner.
        let untilOneRowASecond = log(400) / -log(ScrollPhysics.decelerationPerMillisecond)
        #expect(Double(ms) < untilOneRowASecond - 200, "ended at \(ms) ms")
        #expect(abs(p.offset - fullRest) < 1e-6, "rests at \(p.offset), where the whole fling would: \(fullRest)")
    }

    /// Regression (review): a fling up that ends within the first row rests at the top, not
    /// a fraction below it, where `isAtTop` was false and the next fling up went nowhere.
    @Test func aFlingUpThatEndsInTheFirstRowRestsAtTheTop() {
        var p = physics()
        p.jump(to: 30)
        p.fling(speed: -400, at: .zero)
        var ms = 0
        while p.isMoving { ms += 8; p.advance(to: .milliseconds(ms)) }
        #expect(p.offset == 0)
        p.jump(to: 0.4)
        p.fling(speed: -400, at: .seconds(10))
        p.advance(to: .seconds(10))
        #expect(p.offset == 0 && !p.isMoving)
    }

    /// Upward, the ease-out's last fraction of a row is not shown either: the step ends on
    /// the frame that shows its target row. Downward, the target row is reached only at the
    /// end, so the step takes its whole duration.
    @Test func aStepEndsWhenItsTargetRowIsShown() {
        var p = physics()
        p.jump(to: 16)
        p.step(by: -8, at: .zero)
        var ms = 0, rowShownAt = 0
        while p.isMoving {
            ms += 8
            p.advance(to: .milliseconds(ms))
            if Int(p.offset) == 8 && rowShownAt == 0 { rowShownAt = ms }
        }
        #expect(p.offset == 8 && ms < 150 && ms == rowShownAt, "up: ended at \(ms) ms, row 8 shown at \(rowShownAt) ms")
        p.step(by: 8, at: .milliseconds(ms))
        let start = ms
        while p.isMoving { ms += 8; p.advance(to: .milliseconds(ms)) }
        #expect(p.offset == 16 && ms - start >= 150, "down: \(ms - start) ms")
    }

    /// Regression: the frame that starts a fling advances by zero time while the offset is
    /// still at the end it leaves; that end used to stop the fling before it moved.
    @Test func aFlingLeavesTheEndItStartsAt() {
        var p = physics(content: 1_000, viewport: 50)
        p.fling(speed: 400, at: .milliseconds(5))
        p.advance(to: .milliseconds(5))
        p.advance(to: .milliseconds(21))
        #expect(p.offset > 0 && p.velocity > 0)
        p.jump(to: p.maximumOffset)
        p.fling(speed: -400, at: .milliseconds(30))
        p.advance(to: .milliseconds(30))
        p.advance(to: .milliseconds(46))
        #expect(p.offset < p.maximumOffset && p.velocity < 0)
    }

    @Test func motionStopsAtBothEnds() {
        var p = physics(content: 200, viewport: 50)
        p.fling(speed: 5000, at: .zero)
        p.advance(to: .seconds(5))
        #expect(p.offset == 150 && p.velocity == 0)
        p.step(by: -1000, at: .seconds(6))
        p.advance(to: .seconds(7))
        #expect(p.offset == 0)
        p.wheel(rows: -3, at: .seconds(8))
        p.advance(to: .seconds(9))
        #expect(p.offset == 0 && !p.isMoving)
    }

    @Test func wheelTicksAccelerateAndResizeClamps() {
        var p = physics()
        p.wheel(rows: 3, at: .zero)
        let one = p.velocity
        p.wheel(rows: 3, at: .milliseconds(10))
        #expect(p.velocity == 2 * one)
        p.advance(to: .seconds(3))
        #expect(p.offset > 0 && !p.isMoving)
        p.jump(to: 900)
        p.setSizes(content: 500, viewport: 50)
        #expect(p.offset == 450)
    }
}

@Suite struct PositionKeepingTests {
    @Test func theFirstVisibleItemStaysPutWhenTheColumnsReflow() {
        let list = ListFixture(count: 400, layout: GridLayout(minimumItemWidth: 10, itemHeight: 2, spacing: 0), rows: 10)
        list.view.setViewport(Rect(x: 0, y: 0, width: 40, height: 10))
        list.frame()
        list.view.scroll(byRows: 20, at: list.time)  // 4 columns: item 40 at the top
        list.frame()
        #expect(list.view.layout.frame(for: ItemPath(item: 40, section: 0)).y == Int(list.view.physics.offset))
        list.view.setViewport(Rect(x: 0, y: 0, width: 20, height: 10))  // 2 columns
        list.frame()
        #expect(list.view.layout.columns == 2)
        #expect(list.view.layout.frame(for: ItemPath(item: 40, section: 0)).y == Int(list.view.physics.offset))
        #expect(list.canvas.rowTexts[0].hasPrefix("row 40"))
    }
}

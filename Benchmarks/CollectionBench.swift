import ArgumentParser
import CellCanvas
import CollectionKit
import CoreKit
import DiffableData
import RenderLoop

/// Commit cost per frame while scrolling a 200×60 canvas over a million text-only cells,
/// and the cost of the layout's visible-rect query.
struct CollectionBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "collection", abstract: "Collection view commit and layout costs.")

    @Option(help: "Items in the grid.") var items = 1_000_000
    @Option(help: "Frames to scroll.") var frames = 6_000
    @Flag(help: "End with a JSON object.") var json = false

    final class PostCell: CollectionViewCell {
        var title = "", region = "", likes = 0
        override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {
            canvas.box(frame, style: CellStyle(foreground: .palette(8)), clip: clip)
            canvas.draw(title, at: Point(x: frame.x + 2, y: frame.y + 1), width: frame.width - 4, style: CellStyle(bold: true), clip: clip)
            canvas.draw(region, at: Point(x: frame.x + 2, y: frame.y + 2), width: frame.width - 4, clip: clip)
            canvas.draw("♥ \(likes)", at: Point(x: frame.x + 2, y: frame.y + 3), width: frame.width - 4, style: CellStyle(foreground: .red), clip: clip)
        }
    }

    func run() {
        let names = ["Cusco", "Saint Lucia", "Lofoten", "Kyoto", "Patagonia", "Algarve", "Lake Bled", "Isle of Skye"]
        let regions = ["Peru", "Caribbean", "Norway", "Japan", "Argentina", "Portugal", "Slovenia", "Scotland"]
        let registration = CellRegistration<PostCell, Int> { cell, _, item in
            cell.title = "\(names[item % names.count]) #\(item)"
            cell.region = regions[item % regions.count]
            cell.likes = (item &* 7919) % 10_000
        }
        let clock = MonotonicClock()
        let view = CollectionView<Int, Int>(layout: GridLayout(minimumItemWidth: 40, itemHeight: 5, spacing: 1), clock: clock) { view, path, item in
            view.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
        }
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(0..<items))
        view.reloadData(snapshot)
        view.setViewport(Rect(x: 0, y: 0, width: 200, height: 60))
        var canvas = Canvas(columns: 200, rows: 60)

        // Scroll at 3 rows a frame (a new item row every other frame), from the middle.
        view.scrollToTop()
        var time: Duration = .zero
        var costs: [Double] = []
        costs.reserveCapacity(frames)
        let middle = Double(view.layout.contentHeight / 2)
        view.fling(speed: 0, at: time)
        for frame in 0..<frames {
            if frame == frames / 2 { view.scroll(byRows: middle, at: time) }  // half the run deep in the million
            view.scroll(byRows: 3, at: time)
            time += .milliseconds(200)
            let start = clock.now
            view.commit(at: time, into: &canvas)
            costs.append((clock.now - start).milliseconds)
        }
        let sorted = costs.sorted()
        let p50 = Measure.percentile(sorted, 0.5), p99 = Measure.percentile(sorted, 0.99)

        var rng = SplitMix64(seed: 5)
        let height = view.layout.contentHeight
        let queries = 100_000
        let (queryTime, found) = Measure.wall { () -> Int in
            var total = 0
            for _ in 0..<queries {
                let top = rng.below(height)
                total += view.layout.indexPaths(inRows: top, top + 60).count
            }
            return total
        }
        let queryMicros = queryTime.microseconds / Double(queries)
        print("Collection view, release build: \(items) items, 200x60 canvas, \(view.layout.columns) columns, \(frames) frames scrolling 3 rows each")
        print("commit per frame: p50 \(Measure.format(p50, 3)) ms, p99 \(Measure.format(p99, 3)) ms, max \(Measure.format(sorted.last ?? .nan, 3)) ms; cells prepared in commit \(view.cellsPreparedInCommit), live at the end \(view.liveCellCount), pooled \(view.pooledCellCount)")
        print("layout visible-rect query: \(Measure.format(queryMicros, 3)) µs (\(found / queries) items per query)")
        if json {
            print("{\"items\":\(items),\"commit_p50_ms\":\(Measure.json(p50)),\"commit_p99_ms\":\(Measure.json(p99)),\"layout_query_us\":\(Measure.json(queryMicros))}")
        }
    }
}

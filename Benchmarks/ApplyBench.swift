import ArgumentParser
import CellCanvas
import CollectionKit
import CoreKit
import DiffableData
import RenderLoop

/// What the main thread pays to commit a background apply, by the size of the change: a
/// million items down to three and back, against a thousand down to three and back. The
/// build and the diff run on the data source's queue; what is timed here is the commit
/// that takes the finished changeset (and the next one, which hands the replaced
/// snapshots back to the queue to be freed). Equal costs (a ratio near 1) show that the
/// main thread's share does not grow with the data.
struct ApplyBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "applies", abstract: "Main-thread cost of committing huge background applies.")

    @Option(help: "Rounds of (big → 3 → big) per size.") var rounds = 10

    final class TextCell: CollectionViewCell {
        var text = ""
        override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {
            canvas.draw(text, at: Point(x: frame.x, y: frame.y), width: frame.width, clip: clip)
        }
    }

    func run() {
        let small = measure(items: 1_000), large = measure(items: 1_000_000)
        print("main-thread commit of a background apply, \(rounds) rounds each, median (worst) in ms")
        print("  1,000 → 3 → 1,000:          \(fixed(small.median)) (\(fixed(small.worst)))")
        print("  1,000,000 → 3 → 1,000,000:  \(fixed(large.median)) (\(fixed(large.worst)))")
        print("  ratio of medians (1M / 1k): \(fixed(large.median / small.median))")
    }

    private func fixed(_ value: Double) -> String { formatFixed(value, 3) }

    @Sendable private static func snapshot(_ ids: [Int]) -> Snapshot<Int, Int> {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(ids)
        return snapshot
    }

    /// Commit times in ms of every apply (both directions), median and worst.
    private func measure(items: Int) -> (median: Double, worst: Double) {
        let registration = CellRegistration<TextCell, Int> { cell, _, item in cell.text = "post \(item)" }
        let clock = MonotonicClock()
        let view = CollectionView<Int, Int>(layout: GridLayout(minimumItemWidth: 30, itemHeight: 6, spacing: 1), clock: clock) { view, path, item in
            view.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
        }
        view.setViewport(Rect(x: 0, y: 0, width: 160, height: 46))
        let all = Array(1...items)
        let source = DiffableDataSource(collectionView: view, initial: Self.snapshot(all))
        var canvas = Canvas(columns: 160, rows: 46)
        var time = Duration.zero
        func frame() -> Double {
            time += .milliseconds(8)
            let start = clock.now
            source.applyFinishedUpdates(at: time)
            view.commit(at: time, into: &canvas)
            return (clock.now - start).milliseconds
        }
        func commitWhenFinished() -> Double {
            while source.hasBackgroundWork {
                // Frames while the queue works: each cheap, none holding a finished apply yet.
                _ = frame()
                clock.sleep(until: clock.now + .microseconds(200))
                if !source.hasBackgroundWork { break }
            }
            return frame() + frame()  // the apply, then the hand-back of what it replaced
        }
        _ = frame()
        var costs: [Double] = []
        for _ in 0..<rounds {
            source.applyInBackground(animatingDifferences: true) { _ in Self.snapshot([2, items / 2, items - 1]) }
            costs.append(commitWhenFinished())
            time += .milliseconds(300)
            _ = frame()
            source.applyInBackground(animatingDifferences: true) { _ in Self.snapshot(all) }
            costs.append(commitWhenFinished())
            time += .milliseconds(300)
            _ = frame()
        }
        return (Measure.median(costs), costs.max() ?? .nan)
    }
}

import CellCanvas
@testable import CollectionKit
import CoreKit
import DiffableData
import Dispatch
import Foundation
import RenderLoop
import Testing

/// Snapshots built and diffed off the main thread: a newer build supersedes an older one,
/// the main thread commits only finished changesets, and a huge change costs what the
/// screen shows.
@Suite struct BackgroundBuildTests {
    final class Fixture {
        let view: CollectionView<Int, Int>
        let source: DiffableDataSource<Int, Int>
        var canvas = Canvas(columns: 12, rows: 4)
        var time: Duration = .zero

        init(initial: [Int], execution: BackgroundExecution) {
            let registration = CellRegistration<TextCell, Int> { cell, _, item in cell.text = "post \(item)" }
            view = CollectionView(layout: .list(itemHeight: 1), clock: VirtualClock()) { view, path, item in
                view.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
            }
            view.setViewport(Rect(x: 0, y: 0, width: 12, height: 4))
            source = DiffableDataSource(collectionView: view, initial: SourceFixture.snapshot(initial), execution: execution)
            frame()
        }

        func frame() {
            time += .milliseconds(8)
            source.applyFinishedUpdates(at: time)
            view.commit(at: time, into: &canvas)
        }

        /// Frames until the background is done (real threads), at most 10 s.
        func settle() {
            let end = Date().addingTimeInterval(10)
            while source.hasBackgroundWork && Date() < end {
                frame()
                usleep(500)
            }
            frame()
        }

        var rows: [String] { canvas.rowTexts.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func theInitialSnapshotIsShownAtTheFirstCommitWithoutAnApply() {
        let fixture = Fixture(initial: [7, 8, 9], execution: .inline)
        #expect(fixture.rows.prefix(3) == ["post 7", "post 8", "post 9"])
        #expect(fixture.source.numberOfItems == 3)
        #expect(!fixture.source.hasBackgroundWork)
    }

    @Test func aNewerBuildSupersedesOneStillRunning() {
        let fixture = Fixture(initial: [1], execution: .serialQueue)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let sawSuperseded = Lock(false)
        fixture.source.applyInBackground { isSuperseded in
            started.signal()
            release.wait()  // the second build is asked for while this one runs
            sawSuperseded.withLock { $0 = isSuperseded() }
            return SourceFixture.snapshot([100, 101])  // dropped: superseded
        }
        started.wait()
        fixture.source.applyInBackground { _ in SourceFixture.snapshot([200, 201]) }
        release.signal()
        var applied: [[Int]] = []
        let end = Date().addingTimeInterval(10)
        while fixture.source.hasBackgroundWork && Date() < end {
            fixture.frame()
            let items = fixture.view.snapshot.itemIdentifiers
            if applied.last != items { applied.append(items) }
            usleep(500)
        }
        fixture.frame()
        #expect(sawSuperseded.withLock { $0 })
        #expect(fixture.view.snapshot.itemIdentifiers == [200, 201])
        #expect(!applied.contains([100, 101]), "a superseded build is never committed")
    }

    /// A frame may wait for a quick build and show it at once: the wait ends when the build
    /// does (a blocked build keeps it waiting to its timeout, then the frame goes on), and
    /// the next commit applies the result.
    @Test func aFrameCanWaitForAQuickBuildButNeverLongerThanItSays() {
        let fixture = Fixture(initial: [1], execution: .serialQueue)
        let release = DispatchSemaphore(value: 0)
        fixture.source.applyInBackground { _ in
            release.wait()
            return SourceFixture.snapshot([5, 6])
        }
        #expect(!fixture.source.waitForBackgroundWork(timeout: .milliseconds(20)), "blocked: the wait gives up")
        #expect(fixture.view.snapshot.itemIdentifiers == [1])
        release.signal()
        #expect(fixture.source.waitForBackgroundWork(timeout: .seconds(10)), "finished: the wait ends with it")
        fixture.frame()
        #expect(fixture.view.snapshot.itemIdentifiers == [5, 6], "applied by the very next commit")
        #expect(fixture.source.waitForBackgroundWork(timeout: .zero), "nothing running: no wait")
    }

    /// Past the listed-change limit a background apply carries a summary (which items
    /// changed is not listed) and the view is still exactly the new snapshot.
    @Test func aChangeTooLargeToListIsAppliedFromItsSummary() {
        let big = Array(1...150_000)
        let fixture = Fixture(initial: big, execution: .inline)
        fixture.source.applyInBackground(animatingDifferences: false) { _ in SourceFixture.snapshot(big.reversed()) }
        fixture.frame()
        #expect(fixture.rows.prefix(2) == ["post 150000", "post 149999"])
        #expect(fixture.source.numberOfItems == 150_000)
    }

    @Test func aBuildThatReturnsNilAppliesNothing() {
        let fixture = Fixture(initial: [1, 2], execution: .serialQueue)
        fixture.source.applyInBackground { _ in nil }
        fixture.settle()
        #expect(fixture.view.snapshot.itemIdentifiers == [1, 2])
    }

    @Test func reconfigureIsAllowedBesideBackgroundApplies() {
        let fixture = Fixture(initial: [1, 2, 3], execution: .inline)
        fixture.source.applyInBackground(animatingDifferences: false) { _ in SourceFixture.snapshot([3, 2, 1]) }
        fixture.source.reconfigureItems([2])
        fixture.frame()
        #expect(fixture.rows.prefix(3) == ["post 3", "post 2", "post 1"])
    }

    /// A million items down to three and back: the main thread's commit visits the live
    /// cells only (the changeset of a million deletes is never walked there), the cells of
    /// items that stay are kept, and the screen is right after each.
    @Test func aMillionToThreeAndBackKeepsTheCellsOfItemsThatStay() {
        let million = Array(1...1_000_000)
        let fixture = Fixture(initial: million, execution: .inline)
        let kept = fixture.view.cell(for: 2)
        fixture.source.applyInBackground { _ in SourceFixture.snapshot([2, 500_000, 999_999]) }
        fixture.frame()
        #expect(fixture.view.isAnimatingUpdate, "post 2 glides up from its row")
        fixture.time += .milliseconds(300)
        fixture.frame()
        #expect(fixture.rows.prefix(3) == ["post 2", "post 500000", "post 999999"])
        #expect(fixture.view.cell(for: 2) === kept, "a moved item keeps its cell")
        #expect(fixture.view.liveCellCount <= 4)
        fixture.source.applyInBackground { _ in SourceFixture.snapshot(million) }
        fixture.frame()
        fixture.time += .milliseconds(300)  // past the fade
        fixture.frame()
        #expect(fixture.rows.prefix(4) == ["post 1", "post 2", "post 3", "post 4"])
        #expect(fixture.source.numberOfItems == 1_000_000)
    }
}

import Foundation
@testable import ImagePipeline
import CoreKit
import TestSupport
import Testing

/// The repository's Assets folder (placeholders.json and photos).
let assetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets")

/// Polls `condition` (work happens on other threads) for up to `seconds`; this waits for
/// an event, it does not time anything.
func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

/// `eventually`, pumping `store` as the frame loop does every frame: requests its queue
/// could not take at once are handed over, arrived results are taken in (none delivered).
func eventually(_ store: AssetStore, _ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    eventually(seconds) {
        store.deliverCompletions(limit: 0)
        return condition()
    }
}

@Suite(.serialized) struct AssetStoreTests {
    func key(_ name: String = "quadrants.jpg", window: CropWindow = .whole) -> PreparedImageKey {
        PreparedImageKey(asset: AssetID(path: fixture(name), window: window), columns: 12, rows: 4)
    }

    func store(latency: Duration = .zero, workers: Int = 2) -> AssetStore {
        AssetStore(source: SimulatedNetworkSource(latency: latency, jitter: .zero), workers: workers, transfers: workers, colorMode: .truecolor)
    }

    /// A source whose fetches each wait until `needed` fetches are in flight together (or
    /// give up after a while and say so): it proves transfers overlap.
    final class RendezvousSource: ImageSource {
        let needed: Int
        let inFlight = Lock((now: 0, most: 0))
        init(needed: Int) { self.needed = needed }
        func image(at url: String, kind: PhotoKind, request: Int, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
            inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            defer { inFlight.withLock { $0.now -= 1 } }
            for _ in 0..<2000 where inFlight.withLock({ $0.most }) < needed { try? await Task.sleep(for: .milliseconds(5)) }
            return .file(path: url)
        }
    }

    /// Waiting for the network must not occupy the decoding workers: with one decoding
    /// worker, four transfers are in flight at the same time.
    @Test func transfersOverlapWhileOneWorkerDecodes() {
        let source = RendezvousSource(needed: 4)
        let store = AssetStore(source: source, workers: 1, transfers: 4, colorMode: .truecolor)
        let names = ["quadrants.jpg", "quadrants.png", "quadrants-progressive.jpg", "orientation-6.jpg"]
        for name in names { _ = store.download(key(name)) { _ in } }
        #expect(eventually(store) { store.counters.prepared + store.counters.failed == 4 })
        #expect(source.inFlight.withLock { $0.most } == 4)
    }

    @Test func completionArrivesThroughTheMailboxOnTheCallingThread() throws {
        let store = store()
        var results: [Result<CellImage, ImageError>] = []
        _ = store.download(key()) { results.append($0) }
        #expect(results.isEmpty, "never called synchronously")
        #expect(eventually(store) { store.undeliveredCount == 1 })
        #expect(results.isEmpty, "not called from the worker")
        #expect(store.deliverCompletions() == 1)
        let image = try #require(try results.first?.get())
        #expect(image.columns == 12 && image.rows == 4)
        #expect(!store.asset(for: key()).isPlaceholder)
    }

    @Test func aSecondDownloadIsServedFromTheCache() {
        let store = store()
        var delivered = 0
        _ = store.download(key()) { _ in delivered += 1 }
        #expect(eventually(store) { store.undeliveredCount == 1 })
        store.deliverCompletions()
        _ = store.download(key()) { _ in delivered += 1 }
        #expect(eventually(store) { store.undeliveredCount == 1 })
        store.deliverCompletions()
        #expect(delivered == 2)
        #expect(store.counters.prepared == 1)
    }

    @Test func assetForAnUnpreparedItemIsAPlaceholderWithoutDecoding() throws {
        let catalog = try PlaceholderCatalog(contentsOf: assetsFolder.appendingPathComponent("placeholders.json"))
        #expect(catalog.count >= 20)
        let store = AssetStore(source: SimulatedNetworkSource(latency: .zero), workers: 1, colorMode: .truecolor, placeholders: catalog)
        let meadow = PreparedImageKey(asset: AssetID(path: assetsFolder.appendingPathComponent("photos/green-meadow.jpg").path), columns: 8, rows: 3)
        let asset = store.asset(for: meadow)
        #expect(asset.isPlaceholder)
        #expect(store.counters.prepared == 0)
        // The meadow photo is green: its placeholder cells are.
        let greenish = asset.image.background.filter { ($0 >> 8 & 0xFF) > ($0 >> 16 & 0xFF) && ($0 >> 8 & 0xFF) > ($0 & 0xFF) }
        #expect(greenish.count > asset.image.background.count / 2)
        // Different crop windows of one photo give different placeholders.
        let top = store.asset(for: PreparedImageKey(asset: AssetID(path: meadow.asset.path, window: CropWindow(x: 0, y: 0, width: 0.4, height: 0.3)), columns: 8, rows: 3))
        #expect(top.image.background != asset.image.background)
    }

    @Test func cancellingBeforeTheWorkStartsSkipsIt() {
        let store = store(latency: .milliseconds(300), workers: 1)
        var called: [String] = []
        _ = store.download(key(), priority: 0) { _ in called.append("first") }
        let second = store.download(key("quadrants.png"), priority: 1) { _ in called.append("second") }
        second.cancel()
        #expect(eventually(store) { store.counters.prepared + store.counters.skipped == 2 })
        #expect(store.counters.skipped == 1 && store.counters.prepared == 1)
        #expect(eventually(store) { store.undeliveredCount == 1 })
        store.deliverCompletions()
        #expect(called == ["first"])
    }

    /// The simulated network, and a signal once a fetch has begun.
    final class ObservedSource: ImageSource {
        let network: SimulatedNetworkSource
        let started = DispatchSemaphore(value: 0)
        init(latency: Duration) { network = SimulatedNetworkSource(latency: latency, jitter: .zero) }
        func image(at url: String, kind: PhotoKind, request: Int, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
            started.signal()
            return try await network.image(at: url, kind: kind, request: request, onBytes: onBytes)
        }
    }

    @Test func cancellingDuringTheTransferAbandonsIt() {
        let source = ObservedSource(latency: .seconds(30))
        let store = AssetStore(source: source, workers: 1, transfers: 1, colorMode: .truecolor)
        var called = false
        let request = store.download(key()) { _ in called = true }
        // Waits for the transfer to begin (an event, not a duration; the store is pumped as
        // the frame loop would, which starts queued transfers), then cancels it.
        #expect(eventually(store) { source.started.wait(timeout: .now()) == .success })
        request.cancel()
        #expect(eventually(store) { store.counters.abandoned == 1 }, "the 30 s transfer stopped at once")
        #expect(store.deliverCompletions() == 0 && !called)
        #expect(store.counters.prepared == 0)
    }

    @Test func aCompletionPostedBeforeCancelIsNeverCalled() {
        let store = store()
        var called = false
        let request = store.download(key()) { _ in called = true }
        #expect(eventually(store) { store.undeliveredCount == 1 })
        request.cancel()
        #expect(store.deliverCompletions() == 0)
        #expect(!called)
        #expect(store.pendingCount == 0)
    }

    @Test func failuresAreTypedAndRemembered() {
        let store = store()
        var outcome: Result<CellImage, ImageError>?
        _ = store.download(key("corrupt.jpg")) { outcome = $0 }
        #expect(eventually(store) { store.undeliveredCount == 1 })
        store.deliverCompletions()
        guard case .failure(.corrupt)? = outcome else {
            Issue.record("expected a corrupt-image failure, got \(String(describing: outcome))")
            return
        }
        guard case .failed(_, .corrupt) = store.asset(for: key("corrupt.jpg")) else {
            Issue.record("asset(for:) should report the failure")
            return
        }
    }

    @Test func theNearestRequestRunsFirst() {
        let pool = WorkerPool<Void>(workers: 1, name: "test") {}
        let order = Lock<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        pool.submit(priority: 0) { _ in gate.wait() }  // holds the only worker
        for priority in [5, 1, 3, 1, 0] {
            pool.submit(priority: priority) { _ in order.withLock { $0.append(priority) } }
        }
        gate.signal()
        #expect(eventually { order.withLock { $0.count } == 5 })
        #expect(order.withLock { $0 } == [0, 1, 1, 3, 5])
        pool.stop()
    }

    @Test func simulatedLatencyIsSeededAndJittered() {
        let source = SimulatedNetworkSource(latency: .milliseconds(80), jitter: .milliseconds(40), seed: 7)
        let delays = (0..<200).map { source.delay(forRequest: $0) }
        #expect(delays == (0..<200).map { SimulatedNetworkSource(latency: .milliseconds(80), jitter: .milliseconds(40), seed: 7).delay(forRequest: $0) })
        #expect(delays.allSatisfy { $0 >= .milliseconds(40) && $0 <= .milliseconds(120) })
        #expect(Set(delays).count > 150)
        #expect(SimulatedNetworkSource(latency: .zero, jitter: .zero).delay(forRequest: 3) == .zero)
    }
}

/// A loader that refuses requests while `isBusy`, as the worker queue does while a worker
/// holds it: the store keeps them and hands them over later, in order.
final class BusyLoader: AssetLoading {
    let inbox = Mailbox<AssetCompletion>()
    let counters = AssetLoadCounters()
    var isBusy = true
    var accepted: [Int] = []
    func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) -> Bool {
        guard !isBusy else { return false }
        accepted.append(request)
        return true
    }
    /// What ``noteTerminalBusy(_:)`` was told, frame by frame.
    var terminalBusy: [Bool] = []
    func noteTerminalBusy(_ busy: Bool) { terminalBusy.append(busy) }
}

@Suite struct AssetStoreHandOverTests {
    @Test func requestsTheLoaderCannotTakeYetAreKeptInOrder() {
        let loader = BusyLoader()
        let store = AssetStore(cache: PreparedImageCache(limit: 1 << 20), loader: loader, colorMode: .truecolor)
        let keys = (0..<4).map { PreparedImageKey(asset: AssetID(path: "/nonexistent/\($0).jpg"), columns: 4, rows: 2) }
        let cancelled = store.download(keys[0]) { _ in }
        for key in keys.dropFirst() { _ = store.download(key) { _ in } }
        #expect(loader.accepted.isEmpty && store.unsubmittedCount == 4, "while busy, nothing is handed over")
        cancelled.cancel()
        loader.isBusy = false
        store.deliverCompletions()
        #expect(loader.accepted == [1, 2, 3], "handed over in order; the cancelled one never")
        #expect(store.unsubmittedCount == 0)
        #expect(store.counters.skipped == 1, "a request cancelled while it waited counts as skipped")
    }
}

@Suite struct WorkerPriorityTests {
    /// The pool's threads run below the caller: `mixed` gives the first nice 10 and the
    /// others SCHED_IDLE; the thread that made the pool keeps its own priority.
    @Test func workersRunBelowTheThreadThatMadeThem() {
        let callerNice = WorkerPriority.currentThreadNice
        let seen = Lock<[Int: (nice: Int32, idle: Bool)]>([:])
        let pool = WorkerPool<Int>(workers: 2, name: "priority test", priority: .mixed) { 0 }
        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        // Two jobs that each hold a worker until both have reported, so each thread runs one.
        for _ in 0..<2 {
            pool.submit(priority: 0) { _ in
                let policy = sched_getscheduler(0)
                seen.withLock { $0[Int(pthread_self())] = (WorkerPriority.currentThreadNice, policy == 5 /* SCHED_IDLE */) }
                started.signal()
                gate.wait()
            }
        }
        started.wait()
        started.wait()
        gate.signal()
        gate.signal()
        pool.stop()
        let threads = seen.withLock { Array($0.values) }
        #expect(threads.count == 2)
        #expect(threads.filter { $0.nice >= 10 && !$0.idle }.count == 1, "one low: \(threads)")
        #expect(threads.filter { $0.idle }.count == 1, "one SCHED_IDLE: \(threads)")
        #expect(WorkerPriority.currentThreadNice == callerNice, "the caller is untouched")
    }

    /// A clock for the pool's starvation that stands still until the test moves it: until
    /// then no job counts as waiting, so only the pool's own thread takes one, however long
    /// a busy machine keeps it from a core (issue 47: on the real clock the rescuer could
    /// take the first job, and the order the test asserts changed).
    final class HeldClock: Sendable {
        private let nanoseconds = Lock<UInt64>(1)
        var read: @Sendable () -> UInt64 { { [nanoseconds] in nanoseconds.withLock { $0 } } }
        func advance(by step: UInt64) { nanoseconds.withLock { $0 += step } }
    }

    /// `idle-rescue`: every worker SCHED_IDLE; when they cannot run (here the only one is
    /// held by a job), a job that has waited is run by the rescue thread, at its nice (7).
    /// The held clock lets only the worker take the first job; moved on by the starvation
    /// time, it hands the second to the rescuer.
    @Test func aStarvedJobIsRunByTheRescueThreadAtLowPriority() async {
        let clock = HeldClock()
        let pool = WorkerPool<Int>(workers: 1, name: "rescue test", priority: .idleWithRescue, now: clock.read) { 0 }
        let seen = Lock<[Runner]>([])
        let ran = await onOwnThread { () -> Bool in
            let hold = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            @Sendable func record() { seen.withLock { $0.append(Runner(nice: WorkerPriority.currentThreadNice, idle: sched_getscheduler(0) == 5 /* SCHED_IDLE */)) } }
            pool.submit(priority: 0) { _ in
                record()
                holding.signal()
                hold.wait()
            }
            holding.wait()
            pool.submit(priority: 0) { _ in
                record()
                done.signal()
            }
            clock.advance(by: WorkerPool<Int>.starvationNanoseconds)
            let ran = done.wait(timeout: .now() + 120) == .success  // without a rescuer it never runs; 120 s bounds a hang
            hold.signal()
            pool.stop()
            return ran
        }
        #expect(ran, "the second job ran while the first held its thread")
        let runners = seen.withLock { $0 }
        #expect(runners.count == 2)
        #expect(runners.first?.idle == true, "the first job on the SCHED_IDLE worker: \(runners)")
        #expect(runners.count == 2 && !runners[1].idle && runners[1].nice == WorkerPriority.rescueNice, "the second on the rescue thread at nice 7: \(runners)")
        #expect(pool.rescuedCount == 1)
    }

    /// The thread a job ran on: its nice value, and whether it was `SCHED_IDLE`.
    struct Runner: Sendable { var nice: Int32; var idle: Bool }

    /// While the pool is starved, its own (SCHED_IDLE) threads take the *worst* job — the
    /// one that can best afford to wait in a thread that may not see a core for seconds —
    /// and the rescue threads the best. Starvation is played here by jobs that block: a job
    /// that is off a core longer than on one did not run freely.
    @Test func aStarvedPoolsOwnThreadsTakeTheWorstJob() async {
        let clock = HeldClock()
        let pool = WorkerPool<Int>(workers: 1, name: "starved test", priority: .idleWithRescue, now: clock.read) { 0 }
        let order = Lock<[String]>([])
        let outcome = await onOwnThread { () -> (rescued: Bool, starved: Bool, ran: Bool) in
            let holdWorker = DispatchSemaphore(value: 0), holdRescuer = DispatchSemaphore(value: 0)
            let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            pool.submit(priority: 0) { _ in
                started.signal()
                holdWorker.wait()  // blocked: not a free run …
                usleep(10_000)  // … by more than the 1 ms of slack, however fast the rest goes
            }
            started.wait()  // on the worker: the clock stands still, so the rescuer cannot see a wait
            pool.submit(priority: 1) { _ in
                started.signal()
                holdRescuer.wait()  // the rescuer, once the pool counts as starved
            }
            clock.advance(by: WorkerPool<Int>.starvationNanoseconds)
            let rescued = started.wait(timeout: .now() + 120) == .success
            let starved = pool.isStarved
            for priority in [5, 9] {
                pool.submit(priority: priority) { _ in
                    order.withLock { $0.append("\(priority)") }
                    done.signal()
                }
            }
            holdWorker.signal()  // the worker ends its blocked job, still starved
            let ran = done.wait(timeout: .now() + 120) == .success && done.wait(timeout: .now() + 120) == .success
            holdRescuer.signal()
            pool.stop()
            return (rescued, starved, ran)
        }
        #expect(outcome.rescued, "a job that waited 100 ms with no free run went to a rescuer")
        #expect(outcome.starved)
        #expect(outcome.ran)
        #expect(order.withLock { $0 } == ["9", "5"], "the starved pool thread took the farthest job first")
    }

    /// A free run: no longer off a core than on one, a millisecond of slack.
    @Test func aFreeRunIsOneWithACoreToItself() {
        #expect(WorkerPool<Int>.ranFreely(wall: 3_000_000, cpu: 2_900_000))
        #expect(WorkerPool<Int>.ranFreely(wall: 5_000_000, cpu: 2_000_000), "4 ms of core plus the slack")
        #expect(!WorkerPool<Int>.ranFreely(wall: 400_000_000, cpu: 2_000_000), "a thumbnail that waited 0.4 s for a core")
        #expect(WorkerPool<Int>.ranFreely(wall: 900_000, cpu: 0), "a job too short to measure")
    }
}

import Foundation
@testable import ImagePipeline
import CoreKit
import Testing

/// The pool's limit on threads running at once (D-083): while the terminal works on the
/// app's frames, one decoding thread fewer runs, so that the terminal gets a core. Each
/// step waits for a state of the pool (a thread parked, a job started), never for a time.
@Suite struct WorkerPoolLimitTests {
    /// A job that says when it starts and holds its thread until released.
    final class HeldJob: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ran = Lock(false)
        func submit(to pool: WorkerPool<Int>) {
            pool.submit(priority: 0) { [self] _ in
                ran.withLock { $0 = true }
                started.signal()
                release.wait()
            }
        }
        var hasRun: Bool { ran.withLock { $0 } }
        /// Waits for the start (120 s bounds a hang, which fails the test).
        func waitForStart() -> Bool { started.wait(timeout: .now() + 120) == .success }
    }

    /// A pool of two limited to one, the first job holding the running thread and the
    /// second's thread waiting over the limit.
    func poolWithAThreadWaiting(priority: WorkerPriority = .normal, now: (@Sendable () -> UInt64)? = nil)
        -> (pool: WorkerPool<Int>, first: HeldJob, second: HeldJob) {
        let pool = now.map { WorkerPool<Int>(workers: 2, name: "limit test", priority: priority, now: $0) { 0 } }
            ?? WorkerPool<Int>(workers: 2, name: "limit test", priority: priority) { 0 }
        // The limit is set with a try-lock (the main thread never waits for a worker), and a
        // rescue thread may hold the lock at that moment: set it until it took.
        #expect(eventually(120) {
            pool.limitRunning(to: 1)
            return pool.occupancy.limit == 1
        })
        let first = HeldJob(), second = HeldJob()
        first.submit(to: pool)
        #expect(first.waitForStart())
        second.submit(to: pool)
        // 120 s: a `SCHED_IDLE` pool thread must run to park, and a loaded test run may keep
        // it from a core for long (it bounds a hang, which fails the test).
        #expect(eventually(120) { pool.occupancy.parked == 1 }, "the second thread waits: one runs already")
        return (pool, first, second)
    }

    @Test func overTheLimitAThreadWaitsUntilTheRunningJobEnds() {
        let (pool, first, second) = poolWithAThreadWaiting()
        #expect(pool.occupancy.limit == 1)
        #expect(!second.hasRun && pool.occupancy.running == 1)
        first.release.signal()
        #expect(second.waitForStart(), "the first job's end lets the waiting thread take the second")
        second.release.signal()
        pool.stop()
    }

    @Test func raisingTheLimitWakesTheWaitingThread() {
        let (pool, first, second) = poolWithAThreadWaiting()
        pool.limitRunning(to: .max)
        #expect(second.waitForStart(), "both run once the terminal has caught up")
        #expect(pool.occupancy.running == 2 && pool.occupancy.parked == 0)
        first.release.signal()
        second.release.signal()
        pool.stop()
    }

    @Test func theLimitIsNeverBelowOneThread() {
        let pool = WorkerPool<Int>(workers: 1, name: "limit test") { 0 }
        pool.limitRunning(to: 0)
        #expect(pool.occupancy.limit == 1)
        let job = HeldJob()
        job.submit(to: pool)
        #expect(job.waitForStart(), "a pool of one still runs its job")
        job.release.signal()
        pool.stop()
    }

    @Test func aPoolStoppedWhileAThreadWaitsTakesNoNewJob() {
        let (pool, first, second) = poolWithAThreadWaiting()
        pool.stop()
        #expect(pool.occupancy.parked == 0, "stop lets the parked thread go, before any job ends")
        first.release.signal()
        #expect(eventually { pool.occupancy.running == 0 })
        #expect(!second.hasRun, "a stopping pool takes no new job")
    }

    /// A starved pool (its `SCHED_IDLE` threads get no core: D-055) is not limited: once
    /// starvation is found (on a clock the test moves), the parked thread is let go, and a
    /// thread may take a job over the limit (the rule, `mayRunAnother`, checked directly: the
    /// second job is run by whoever takes it, a rescuer as often as not). The setup needs
    /// the `SCHED_IDLE` threads to run twice, which a loaded test run may delay; the waits
    /// are bounded at 120 s.
    @Test func aStarvedPoolIsNotLimited() {
        #expect(!WorkerPool<Int>.mayRunAnother(running: 1, limit: 1, starved: false))
        #expect(WorkerPool<Int>.mayRunAnother(running: 1, limit: 1, starved: true))
        #expect(WorkerPool<Int>.mayRunAnother(running: 0, limit: 1, starved: false))
        let clock = WorkerPriorityTests.HeldClock()
        let (pool, first, second) = poolWithAThreadWaiting(priority: .idleWithRescue, now: clock.read)
        clock.advance(by: WorkerPool<Int>.starvationNanoseconds)
        #expect(eventually { pool.occupancy.parked == 0 }, "starvation lets the parked thread go")
        #expect(second.waitForStart(), "the second job runs, on that thread or a rescuer")
        first.release.signal()
        second.release.signal()
        pool.stop()
    }

    /// The loader leaves the terminal a core while it is busy and for `terminalHold` after:
    /// its pool's limit is one thread fewer than it has (never below one), and back to all
    /// once the terminal has had nothing to do for that long (on the loader's clock).
    @Test func theLoaderLeavesABusyTerminalACore() {
        for (workers, busyLimit) in [(2, 1), (4, 3), (1, 1)] {
            let clock = Lock(Duration.seconds(10))
            let loader = ImageLoader(source: LocalFileSource(), workers: workers, priority: .normal, colorMode: .truecolor,
                                     now: { clock.withLock { $0 } })
            loader.noteTerminalBusy(false)
            #expect(loader.decodingLimit == .max, "a terminal that never had work takes no core")
            loader.noteTerminalBusy(true)
            #expect(loader.decodingLimit == busyLimit, "\(workers) workers")
            clock.withLock { $0 += ImageLoader.terminalHold - .milliseconds(1) }
            loader.noteTerminalBusy(false)
            #expect(loader.decodingLimit == busyLimit, "held a little after the terminal caught up")
            clock.withLock { $0 += .milliseconds(1) }
            loader.noteTerminalBusy(false)
            #expect(loader.decodingLimit == .max, "all threads once the hold has passed")
        }
    }

    /// The store hands the frame's news to its loader after the commit.
    @Test func theStorePassesTheTerminalsStateToItsLoader() {
        let loader = BusyLoader()
        let store = AssetStore(cache: PreparedImageCache(limit: 1 << 20), loader: loader, colorMode: .truecolor)
        store.startQueuedWork(terminalBusy: true)
        store.startQueuedWork()
        #expect(loader.terminalBusy == [true, false])
    }
}

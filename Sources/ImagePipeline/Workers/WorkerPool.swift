import Foundation
import CoreKit
import Synchronization

/// A fixed set of threads that run jobs lowest priority value first (nearest the
/// viewport first). Each thread builds its own `Context` (a decoder and a converter) and
/// never shares it: TurboJPEG handles and chafa configurations are per thread.
///
/// With a priority that has rescue threads (``WorkerPriority/idleWithRescue``) the pool's
/// threads are `SCHED_IDLE`, which get no core while other work wants every one, and as
/// many rescue threads at nice 7 stand by. The pool is **starved** when some job has
/// waited ``starvationNanoseconds`` and no pool thread has run a job *freely* (its wall
/// time within twice its CPU time) for as long. While starved, the rescue threads take the
/// best jobs one after another, and the pool's threads take the worst: a job a starved
/// `SCHED_IDLE` thread holds may wait seconds for a core, and the farthest prefetch can
/// best afford that. The first job a pool thread runs freely ends it (D-055: with one
/// rescuer that ran only when no pool thread had *taken* a job for 200 ms, a fling over a
/// feed on a busy machine showed half its cell-frames as placeholders).
///
/// How many pool threads run jobs at once can be limited (``limitRunning(to:)``): while a
/// terminal on this machine parses the app's pixels, the pool leaves it a core (D-083).
/// Rescue threads are not limited, nor is a starved pool: its threads get no core anyway,
/// and the limit would only keep jobs from them.
final class WorkerPool<Context>: Sendable {
    typealias Job = @Sendable (Context) -> Void

    private struct Queued: Sendable {
        let priority: Int
        let sequence: Int
        let job: Job
        /// When it was queued (the pool's `now`, ns).
        var queuedAt: UInt64 = 0
    }

    private struct State: Sendable {
        /// Sorted so that the best job is last.
        var jobs: [Queued] = []
        var sequence = 0
        var stopping = false
        /// When a pool thread (not a rescuer) last finished a job with a core to itself.
        var lastFreeRunAt: UInt64 = 0
        var starved = false
        /// Pool threads running a job, how many may at once, and how many hold a wake-up
        /// (a job was queued for them) but are parked over the limit: until a job ends with
        /// fewer running than the limit, the limit rises, the pool is found starved, or it
        /// stops.
        var running = 0
        var limit = Int.max
        var parked = 0
    }

    private let queue = Lock(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let rescueWakeUp = DispatchSemaphore(value: 0)
    /// Wakes a parked pool thread: a running job ended, or the limit rose.
    private let unpark = DispatchSemaphore(value: 0)
    /// The limit the main thread last set (``limitRunning(to:)``), read only there.
    private let limitSet = Atomic(Int.max)
    let workerCount: Int
    private let rescuerCount: Int
    /// How long a job may wait, with no pool thread running one freely, before the pool
    /// counts as starved (100 ms, ns): a quiet pool finishes a thumbnail every few ms.
    static var starvationNanoseconds: UInt64 { 100_000_000 }
    /// How often the rescue threads look while jobs are queued and the pool is not starved.
    static var rescuePeriod: DispatchTimeInterval { .milliseconds(50) }
    /// Jobs the rescue threads took.
    var rescuedCount: Int { rescued.withLock { $0 } }
    private let rescued = Lock(0)
    /// Whether the pool counts as starved now (see the type's comment).
    var isStarved: Bool { queue.withLock { $0.starved } }
    /// The clock starvation is judged by (ns): how long jobs waited and since the last free
    /// run. `DispatchTime`'s uptime; a test holds it still, so that only the pool's own
    /// thread can take a job until the test says time has passed — whatever the machine's
    /// speed. Whether a job ran *freely* is its thread's real wall and CPU time.
    private let now: @Sendable () -> UInt64

    init(workers: Int, name: String, priority: WorkerPriority = .normal,
         now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
         makeContext: @escaping @Sendable () -> Context) {
        precondition(workers > 0, "WorkerPool needs at least one worker, got \(workers)")
        workerCount = workers
        rescuerCount = priority.hasRescue ? workers : 0
        self.now = now
        let started = now()
        queue.withLock { $0.lastFreeRunAt = started }
        for index in 0..<workers {
            let thread = Thread { [self] in
                priority.forThread(index).applyToCurrentThread()
                let context = makeContext()
                while let job = self.next() {
                    let wall = DispatchTime.now().uptimeNanoseconds, cpu = UInt64(ThreadCPUClock.now.nanoseconds)
                    job(context)
                    let end = DispatchTime.now().uptimeNanoseconds
                    let free = Self.ranFreely(wall: end &- wall, cpu: UInt64(ThreadCPUClock.now.nanoseconds) &- cpu)
                    let at = self.now()
                    let wakeParked = queue.withLock { state in
                        if free {
                            state.lastFreeRunAt = at
                            state.starved = false
                        }
                        state.running -= 1
                        return state.running < state.limit ? Self.takeParked(1, from: &state) : 0
                    }
                    if wakeParked > 0 { unpark.signal() }
                }
            }
            thread.name = "\(name) \(index)"
            thread.start()
        }
        for index in 0..<rescuerCount {
            let thread = Thread { [self] in
                WorkerPriority.applyRescueToCurrentThread()
                let context = makeContext()
                while let job = self.nextStarved() {
                    rescued.withLock { $0 += 1 }
                    job(context)
                }
            }
            thread.name = "\(name) rescue \(index)"
            thread.start()
        }
    }

    /// Whether a job that took `wall` ns and `cpu` ns of its thread's time had a core to
    /// itself: off a core for no longer than it was on one, with a millisecond of slack for
    /// the frame loop taking the core now and then. (A job that blocks looks starved too;
    /// the pool's jobs compute.)
    static func ranFreely(wall: UInt64, cpu: UInt64) -> Bool { wall <= 2 * cpu + 1_000_000 }

    /// Queues `job`; among queued jobs, the lowest `priority` runs first, then the oldest.
    /// - Complexity: O(log n) amortised (a binary insertion into the sorted queue).
    func submit(priority: Int, _ job: @escaping Job) {
        let starved = queue.withLock { insert(Queued(priority: priority, sequence: 0, job: job), into: &$0) }
        if starved { rescueWakeUp.signal() }
        wakeUp.signal()
    }

    /// ``submit(priority:_:)`` unless a worker holds the queue right now; false then, and
    /// the caller keeps the job for later (the main thread never waits on a worker).
    func trySubmit(priority: Int, _ job: @escaping Job) -> Bool {
        guard let starved = queue.withLockIfAvailable({ insert(Queued(priority: priority, sequence: 0, job: job), into: &$0) }) else { return false }
        if starved { rescueWakeUp.signal() }
        wakeUp.signal()
        return true
    }

    /// Inserts `job` in order; returns whether the pool is starved (a rescuer should look now).
    private func insert(_ job: Queued, into state: inout State) -> Bool {
        if state.jobs.isEmpty { for _ in 0..<rescuerCount { rescueWakeUp.signal() } }
        let item = Queued(priority: job.priority, sequence: state.sequence, job: job.job, queuedAt: now())
        state.sequence += 1
        var low = 0, high = state.jobs.count
        while low < high {
            let mid = (low + high) / 2
            let other = state.jobs[mid]
            if (other.priority, other.sequence) > (item.priority, item.sequence) { low = mid + 1 } else { high = mid }
        }
        state.jobs.insert(item, at: low)
        return state.starved && rescuerCount > 0
    }

    var queuedCount: Int { queue.withLock { $0.jobs.count } }

    /// On the main thread, at most once a frame: at most `limit` pool threads run jobs at
    /// once from now on (at least 1; `Int.max`: all of them). A job running goes on; a thread
    /// over the limit waits before it takes the next. Never waits: when a worker holds the
    /// pool's lock, the limit stays as it was and the next call sets it.
    func limitRunning(to limit: Int) {
        let limit = max(1, limit)
        guard limit != limitSet.load(ordering: .relaxed) else { return }
        let woken: Int? = queue.withLockIfAvailable { state in
            state.limit = limit
            limitSet.store(limit, ordering: .relaxed)
            return Self.takeParked(limit - state.running, from: &state)
        }
        for _ in 0..<(woken ?? 0) { unpark.signal() }
    }

    /// For tests (it waits for the lock): how many pool threads may run jobs at once
    /// (``limitRunning(to:)``), how many do, and how many are parked.
    var occupancy: (limit: Int, running: Int, parked: Int) { queue.withLock { ($0.limit, $0.running, $0.parked) } }

    /// Up to `count` parked threads leave the parked count; returns how many, for the
    /// caller to signal ``unpark`` once the lock is released.
    private static func takeParked(_ count: Int, from state: inout State) -> Int {
        let taken = min(state.parked, max(0, count))
        state.parked -= taken
        return taken
    }

    /// Lets the threads finish their current job and end.
    func stop() {
        let parked = queue.withLock { state in
            state.stopping = true
            return Self.takeParked(state.parked, from: &state)
        }
        for _ in 0..<workerCount { wakeUp.signal() }
        for _ in 0..<parked { unpark.signal() }
        for _ in 0..<rescuerCount { rescueWakeUp.signal() }
    }

    /// A rescue thread's next job: the best queued one while the pool is starved, one after
    /// another without a pause; sleeps until jobs are queued, then looks every
    /// ``rescuePeriod``. Nil when stopping.
    private func nextStarved() -> Job? {
        while true {
            let now = self.now()
            var unparked = 0
            let taken: (stop: Bool, job: Job?, queued: Bool) = queue.withLock { state in
                if state.stopping { return (true, nil, false) }
                // `now` was read before the lock: a job queued or a run ended since may be later
                // than it, which counts as no time at all (not as a wrapped-around eternity).
                if !state.starved, let oldest = state.jobs.lazy.map(\.queuedAt).min(),
                   Self.nanoseconds(from: oldest, to: now) >= Self.starvationNanoseconds,
                   Self.nanoseconds(from: state.lastFreeRunAt, to: now) >= Self.starvationNanoseconds {
                    state.starved = true
                    unparked = Self.takeParked(state.parked, from: &state)
                }
                guard state.starved, let best = state.jobs.popLast() else { return (false, nil, !state.jobs.isEmpty) }
                return (false, best.job, true)
            }
            for _ in 0..<unparked { unpark.signal() }
            if taken.stop { return nil }
            if let job = taken.job { return job }
            if taken.queued {
                _ = rescueWakeUp.wait(timeout: .now() + Self.rescuePeriod)
            } else {
                rescueWakeUp.wait()
            }
        }
    }

    /// The time from `start` to `end` on the pool's clock, 0 when `end` is earlier.
    static func nanoseconds(from start: UInt64, to end: UInt64) -> UInt64 {
        end > start ? end - start : 0
    }

    /// Whether a pool thread may take a job with `running` others running: under the limit,
    /// or whatever the limit while the pool is starved (its threads get no core anyway).
    static func mayRunAnother(running: Int, limit: Int, starved: Bool) -> Bool { starved || running < limit }

    /// What a woken pool thread does next.
    private enum Step { case stop, run(Job), nothing, park }

    /// A pool thread's next job: the best, or the worst while the pool is starved. A thread
    /// woken while ``limitRunning(to:)``'s limit of threads run parks until one finishes with
    /// fewer running than the limit, the limit rises, the pool is found starved or it stops,
    /// then takes the best job queued by then.
    private func next() -> Job? {
        var unparked = false
        while true {
            if !unparked { wakeUp.wait() }
            unparked = false
            let step: Step = queue.withLock { state in
                if state.stopping { return .stop }
                guard !state.jobs.isEmpty else { return .nothing }
                guard Self.mayRunAnother(running: state.running, limit: state.limit, starved: state.starved) else {
                    state.parked += 1
                    return .park
                }
                state.running += 1
                return .run(state.starved ? state.jobs.removeFirst().job : state.jobs.removeLast().job)
            }
            switch step {
            case .stop: return nil
            case .run(let job): return job
            case .nothing: continue
            case .park:
                unpark.wait()
                unparked = true
            }
        }
    }
}

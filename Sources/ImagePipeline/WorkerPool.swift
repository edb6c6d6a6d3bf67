import Foundation
import CoreKit

/// A fixed set of threads that run jobs lowest priority value first (nearest the
/// viewport first). Each thread builds its own `Context` (a decoder and a converter) and
/// never shares it: TurboJPEG handles and chafa configurations are per thread.
///
/// With a priority that has a rescue thread (``WorkerPriority/idleWithRescue``), one more
/// thread at that priority looks at the queue every ``rescuePeriod`` while it holds jobs,
/// and runs the best one only when some job has waited ``starvationNanoseconds`` and no pool
/// thread has taken a job for as long: the pool's threads are `SCHED_IDLE` and get no core
/// while other work wants every one.
final class WorkerPool<Context>: Sendable {
    typealias Job = @Sendable (Context) -> Void

    private struct Queued: Sendable {
        let priority: Int
        let sequence: Int
        let job: Job
        /// When it was queued (`DispatchTime` uptime, ns).
        var queuedAt: UInt64 = 0
    }

    /// The queue, and when a pool thread (not the rescuer) last took a job from it.
    private let queue = Lock<(jobs: [Queued], sequence: Int, stopping: Bool, lastTakenAt: UInt64)>(([], 0, false, 0))
    private let wakeUp = DispatchSemaphore(value: 0)
    private let rescueWakeUp = DispatchSemaphore(value: 0)
    let workerCount: Int
    /// How long a job may wait before the rescue thread takes one (200 ms, ns).
    static var starvationNanoseconds: UInt64 { 200_000_000 }
    /// How often the rescue thread looks while jobs are queued.
    static var rescuePeriod: DispatchTimeInterval { .milliseconds(50) }
    /// Jobs the rescue thread took.
    var rescuedCount: Int { rescued.withLock { $0 } }
    private let rescued = Lock(0)

    init(workers: Int, name: String, priority: WorkerPriority = .normal, makeContext: @escaping @Sendable () -> Context) {
        precondition(workers > 0, "WorkerPool needs at least one worker, got \(workers)")
        workerCount = workers
        for index in 0..<workers {
            let thread = Thread { [self] in
                priority.forThread(index).applyToCurrentThread()
                let context = makeContext()
                while let job = self.next() { job(context) }
            }
            thread.name = "\(name) \(index)"
            thread.start()
        }
        if let rescue = priority.rescue {
            let thread = Thread { [self] in
                rescue.applyToCurrentThread()
                let context = makeContext()
                while let job = self.nextStarved() {
                    rescued.withLock { $0 += 1 }
                    job(context)
                }
            }
            thread.name = "\(name) rescue"
            thread.start()
        }
    }

    /// Queues `job`; among queued jobs, the lowest `priority` runs first, then the oldest.
    /// - Complexity: O(log n) amortised (a binary insertion into the sorted queue).
    func submit(priority: Int, _ job: @escaping Job) {
        queue.withLock { insert(Queued(priority: priority, sequence: 0, job: job), into: &$0) }
        wakeUp.signal()
    }

    /// ``submit(priority:_:)`` unless a worker holds the queue right now; false then, and
    /// the caller keeps the job for later (the main thread never waits on a worker).
    func trySubmit(priority: Int, _ job: @escaping Job) -> Bool {
        let queued: Void? = queue.withLockIfAvailable { insert(Queued(priority: priority, sequence: 0, job: job), into: &$0) }
        guard queued != nil else { return false }
        wakeUp.signal()
        return true
    }

    private func insert(_ job: Queued, into state: inout (jobs: [Queued], sequence: Int, stopping: Bool, lastTakenAt: UInt64)) {
        if state.jobs.isEmpty { rescueWakeUp.signal() }
        let item = Queued(priority: job.priority, sequence: state.sequence, job: job.job, queuedAt: DispatchTime.now().uptimeNanoseconds)
        state.sequence += 1
        // Kept sorted so that the best job is at the end (removeLast is O(1)).
        var low = 0, high = state.jobs.count
        while low < high {
            let mid = (low + high) / 2
            let other = state.jobs[mid]
            if (other.priority, other.sequence) > (item.priority, item.sequence) { low = mid + 1 } else { high = mid }
        }
        state.jobs.insert(item, at: low)
    }

    var queuedCount: Int { queue.withLock { $0.jobs.count } }

    /// Lets the threads finish their current job and end.
    func stop() {
        queue.withLock { $0.stopping = true }
        for _ in 0..<workerCount { wakeUp.signal() }
        rescueWakeUp.signal()
    }

    /// The rescue thread's next job: the best queued one once any has waited too long;
    /// sleeps until jobs are queued, then looks every ``rescuePeriod``. Nil when stopping.
    private func nextStarved() -> Job? {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let taken: (stop: Bool, job: Job?, queued: Bool) = queue.withLock { state in
                if state.stopping { return (true, nil, false) }
                // Starved: a job has waited that long and no pool thread has taken one for
                // as long (a long queue that the pool works through is not starvation).
                guard let oldest = state.jobs.lazy.map(\.queuedAt).min(), now &- oldest >= Self.starvationNanoseconds,
                      now &- state.lastTakenAt >= Self.starvationNanoseconds else {
                    return (false, nil, !state.jobs.isEmpty)
                }
                return (false, state.jobs.popLast()?.job, true)
            }
            if taken.stop { return nil }
            if let job = taken.job { return job }
            if taken.queued {
                _ = rescueWakeUp.wait(timeout: .now() + Self.rescuePeriod)
            } else {
                rescueWakeUp.wait()
            }
        }
    }

    private func next() -> Job? {
        while true {
            wakeUp.wait()
            let job: Job?? = queue.withLock { state in
                if state.stopping { return .some(nil) }
                guard let job = state.jobs.popLast() else { return .none }
                state.lastTakenAt = DispatchTime.now().uptimeNanoseconds
                return .some(job.job)
            }
            switch job {
            case .some(nil): return nil
            case .some(let job?): return job
            case .none: continue
            }
        }
    }
}

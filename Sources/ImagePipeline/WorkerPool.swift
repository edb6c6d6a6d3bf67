import Foundation
import CoreKit

/// A fixed set of threads that run jobs lowest priority value first (nearest the
/// viewport first). Each thread builds its own `Context` (a decoder and a converter) and
/// never shares it: TurboJPEG handles and chafa configurations are per thread.
final class WorkerPool<Context>: Sendable {
    typealias Job = @Sendable (Context) -> Void

    private struct Queued: Sendable {
        let priority: Int
        let sequence: Int
        let job: Job
    }

    private let queue = Lock<(jobs: [Queued], sequence: Int, stopping: Bool)>(([], 0, false))
    private let wakeUp = DispatchSemaphore(value: 0)
    let workerCount: Int

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

    private func insert(_ job: Queued, into state: inout (jobs: [Queued], sequence: Int, stopping: Bool)) {
        let item = Queued(priority: job.priority, sequence: state.sequence, job: job.job)
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
    }

    private func next() -> Job? {
        while true {
            wakeUp.wait()
            let job: Job?? = queue.withLock { state in
                if state.stopping { return .some(nil) }
                return state.jobs.popLast().map(\.job)
            }
            switch job {
            case .some(nil): return nil
            case .some(let job?): return job
            case .none: continue
            }
        }
    }
}

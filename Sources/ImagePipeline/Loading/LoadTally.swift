import Synchronization

/// A loader's counts (``AssetLoadCounters``), bumped by its worker threads and read by the
/// frame loop every frame, lock-free: the workers run `SCHED_IDLE`, and a worker preempted
/// while holding a lock the frame loop waits for stalls the frame (D-056).
final class LoadTally: Sendable {
    let prepared = Atomic(0), skipped = Atomic(0), abandoned = Atomic(0), dropped = Atomic(0), failed = Atomic(0)

    var snapshot: AssetLoadCounters {
        var counters = AssetLoadCounters()
        counters.prepared = prepared.load(ordering: .relaxed)
        counters.skipped = skipped.load(ordering: .relaxed)
        counters.abandoned = abandoned.load(ordering: .relaxed)
        counters.dropped = dropped.load(ordering: .relaxed)
        counters.failed = failed.load(ordering: .relaxed)
        return counters
    }
}

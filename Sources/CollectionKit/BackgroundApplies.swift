import CoreKit
import Dispatch
import DiffableData

/// Builds and diffs snapshots off the main thread in the order they were asked for, and
/// hands back the finished changesets, still in order, for the main thread to commit.
///
/// The main thread tries the hand-over lock in every commit (``takeFinished()``,
/// ``isBusy``; never waiting for it), so building and diffing run outside it: the serial queue alone owns
/// `base`, and the lock guards only the hand-over of finished updates and the count of
/// running ones (a few words, never a loop).
final class BackgroundApplies<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    typealias Update = (snapshot: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool)
    typealias Build = @Sendable (_ isSuperseded: () -> Bool) -> Snapshot<SectionID, ItemID>?

    private let queue = DispatchQueue(label: "DiffableDataSource.background")
    private let execution: BackgroundExecution
    /// The last snapshot diffed; read and written on `queue` only (serial), kept in a lock
    /// of its own that the main thread never takes.
    private let base: Lock<Snapshot<SectionID, ItemID>>
    private let handOver = Lock<(finished: [Update], running: Int)>(([], 0))
    /// The ticket of the latest build asked for. Its own lock: the main thread takes it
    /// only when asking for a build, so a build checking it can never delay a commit.
    private let latestBuild = Lock(0)
    /// Values waiting to be freed on the queue (see ``release(_:_:)``).
    private let discarded = Lock<(snapshots: [Snapshot<SectionID, ItemID>], changes: [Changeset<SectionID, ItemID>])>(([], []))

    init(base: Snapshot<SectionID, ItemID>, execution: BackgroundExecution) {
        self.base = Lock(base.clearingUpdateMarks())
        self.execution = execution
    }

    /// Diffs `snapshot` against the previous one; every snapshot enqueued is committed.
    func enqueue(_ snapshot: Snapshot<SectionID, ItemID>, animated: Bool) {
        run(animated: animated, ticket: nil) { _ in snapshot }
    }

    /// Builds a snapshot and diffs it; a build asked for later supersedes this one: its
    /// `isSuperseded` turns true, and whatever it returns is dropped.
    func enqueue(animated: Bool, build: @escaping Build) {
        let ticket = latestBuild.withLock { latest in
            latest += 1
            return latest
        }
        run(animated: animated, ticket: ticket, build)
    }

    private func run(animated: Bool, ticket: Int?, _ build: @escaping Build) {
        handOver.withLock { $0.running += 1 }
        group.enter()
        let work = { @Sendable [self] in
            // The queue's thread is woken by the main thread mid-frame; a normal thread
            // woken that way preempts its waker and held the frame loop off its core for a
            // scheduler tick (3–4 ms) while it built a snapshot (D-055). A batch thread
            // waits for the frame loop to sleep, or takes the other core.
            if case .serialQueue = execution { BatchScheduling.enterOnCurrentThread() }
            let superseded = { ticket.map { mine in self.latestBuild.withLock { $0 != mine } } ?? false }
            var finished: Update?
            if !superseded(), let snapshot = build(superseded), !superseded() {
                let previous = base.withLock { $0 }
                let listed = previous.numberOfItems + snapshot.numberOfItems <= Self.listedChangeLimit
                let changes = listed ? previous.changeset(to: snapshot) : previous.summaryChangeset(to: snapshot)
                if !superseded() {
                    base.withLock { $0 = snapshot.clearingUpdateMarks() }
                    finished = (snapshot, changes, animated)
                }
            }
            handOver.withLock { state in
                if let finished { state.finished.append(finished) }
                state.running -= 1
            }
            group.leave()
        }
        switch execution {
        case .serialQueue: queue.async(execute: work)
        case .inline: work()
        }
    }

    /// Items (old and new together) up to which a background apply lists every change; past
    /// it the changeset only says that items changed (``Snapshot/summaryChangeset(to:)``):
    /// the view lays out again and animates its live cells from their frames, which is all
    /// it uses the list for, and a filter over a million posts is shown in a tenth of the
    /// time (issue 23: keystroke to result, p95 1.1 s).
    static var listedChangeLimit: Int { 200_000 }

    /// Takes these values from the caller (its arrays are emptied) and frees them on the
    /// background queue, so that dropping the last reference never costs the main thread.
    /// The queue is told only after the caller's references are gone: it always holds the
    /// last one.
    func release(_ snapshots: inout [Snapshot<SectionID, ItemID>], _ changes: inout [Changeset<SectionID, ItemID>]) {
        guard case .serialQueue = execution else {
            snapshots.removeAll()
            changes.removeAll()
            return
        }
        discarded.withLock { box in
            box.snapshots += snapshots
            box.changes += changes
        }
        snapshots.removeAll()
        changes.removeAll()
        queue.async { [discarded, self] in
            BatchScheduling.enterOnCurrentThread()
            let dropped = discarded.withLock { box in
                defer { box = ([], []) }
                return box
            }
            let bigRelease = dropped.snapshots.contains { $0.numberOfItems >= Self.trimAfterItems }
            withExtendedLifetime(dropped) {}  // freed here, on the queue
            if bigRelease { self.trimWanted.withLock { $0 = true } }
        }
    }

    /// Freeing a snapshot this large asks for the freed memory to go back to the system
    /// (``returnFreedMemoryIfWanted()``).
    static var trimAfterItems: Int { 100_000 }
    /// A big snapshot was freed since the last trim.
    private let trimWanted = Lock(false)

    /// Gives the memory freed with big snapshots back to the system (`malloc_trim`), if
    /// any was freed since the last time; on the calling thread. For a frame loop about to
    /// go quiet, never inside frames: trimming takes each malloc arena's lock in turn, and
    /// run on this queue in the middle of a fling it held the lock a commit's `free` needed
    /// for 9–23 ms (D-056).
    func returnFreedMemoryIfWanted() {
        guard trimWanted.withLockIfAvailable({ wanted in
            defer { wanted = false }
            return wanted
        }) == true else { return }
        // Snapshots of a million items are built and freed on whichever thread the queue runs:
        // without this, each thread's arena kept its high-water mark and a long session's
        // resident memory only grew (187 → 489 MB in a 10-minute soak).
        MemoryReturn.toTheSystem()
    }

    func takeFinished() -> [Update] {
        // Never waits: a build posting right now (a batch thread the system may preempt
        // while it holds the lock) hands its update to the next commit instead.
        // Copied out: the array is a batch thread's allocation, and freeing it here would
        // wait for that thread's malloc arena (D-061).
        handOver.withLockIfAvailable { $0.finished.takeAllKeepingStorage() } ?? []
    }

    /// Every build asked for, until it is finished (handed over or dropped).
    private let group = DispatchGroup()

    /// Waits at most `timeout` for every build asked for to finish; true when they have.
    /// For a frame that would rather show a quick result now than a frame later: the wait
    /// is the caller's to bound, and takes no lock (a group, not the hand-over lock).
    func waitUntilFinished(timeout: Duration) -> Bool {
        let nanoseconds = max(0, Int(timeout / .nanoseconds(1)))
        return group.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    /// True while builds run or wait to be taken, and while a build holds the hand-over
    /// lock (never waits).
    var isBusy: Bool { handOver.withLockIfAvailable { $0.running > 0 || !$0.finished.isEmpty } ?? true }
}

/// Where a data source's background applies run.
public enum BackgroundExecution: Sendable {
    /// On a serial queue of the data source's own: the app.
    case serialQueue
    /// At once, on the caller's thread, finished by the next commit: a simulation on a
    /// virtual clock, where the order of events must not depend on threads.
    case inline
}

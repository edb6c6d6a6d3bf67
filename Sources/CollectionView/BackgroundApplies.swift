import CoreKit
import Dispatch
import DiffableData

/// Diffs snapshots off the main thread in the order they were applied, and hands back the
/// finished changesets, still in order, for the main thread to commit.
///
/// The main thread takes the lock in every commit (``takeFinished()``, ``isBusy``), so
/// the diff runs outside it: the serial queue alone owns `base`, and the lock guards only
/// the hand-over of finished updates and the count of running ones.
final class BackgroundApplies<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    typealias Update = (snapshot: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool)

    private let queue = DispatchQueue(label: "DiffableDataSource.background")
    /// The last snapshot diffed; read and written on `queue` only (serial), kept in a lock
    /// of its own that the main thread never takes.
    private let base = Lock<Snapshot<SectionID, ItemID>?>(nil)
    private let handOver = Lock<(finished: [Update], running: Int)>(([], 0))

    func enqueue(_ snapshot: Snapshot<SectionID, ItemID>, animated: Bool) {
        handOver.withLock { $0.running += 1 }
        queue.async { [self] in
            let previous = base.withLock { $0 } ?? Snapshot()
            let changes = previous.changeset(to: snapshot)
            base.withLock { $0 = snapshot.clearingUpdateMarks() }
            handOver.withLock { state in
                state.finished.append((snapshot, changes, animated))
                state.running -= 1
            }
        }
    }

    func takeFinished() -> [Update] {
        handOver.withLock { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
    }

    var isBusy: Bool { handOver.withLock { $0.running > 0 || !$0.finished.isEmpty } }
}

import Dispatch
import DiffableData
import Synchronization

/// Diffs snapshots off the main thread in the order they were applied, and hands back the
/// finished changesets, still in order, for the main thread to commit.
final class BackgroundApplies<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    typealias Update = (snapshot: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool)

    private let queue = DispatchQueue(label: "DiffableDataSource.background")
    private let state = Mutex<(base: Snapshot<SectionID, ItemID>?, finished: [Update], running: Int)>((nil, [], 0))

    func enqueue(_ snapshot: Snapshot<SectionID, ItemID>, animated: Bool) {
        state.withLock { $0.running += 1 }
        queue.async { [self] in
            state.withLock { state in
                let base = state.base ?? Snapshot()
                state.finished.append((snapshot, base.changeset(to: snapshot), animated))
                state.base = snapshot.clearingUpdateMarks()
                state.running -= 1
            }
        }
    }

    func takeFinished() -> [Update] {
        state.withLock { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
    }

    var isBusy: Bool { state.withLock { $0.running > 0 || !$0.finished.isEmpty } }
}

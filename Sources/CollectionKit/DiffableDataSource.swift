import DiffableData

/// The one truth of what the view shows: snapshots in, changesets out (seed 002).
///
/// `apply` diffs the new snapshot against the current one and hands the changeset to the
/// collection view, which updates its cells at the next frame boundary. Data too large to
/// diff inside a frame is applied from the background: ``applyInBackground(_:animatingDifferences:)``
/// diffs there, and ``applyInBackground(animatingDifferences:build:)`` also *builds* the
/// snapshot there, a newer build superseding an older one still running (a filter being
/// typed). The main thread then commits only the finished changeset, in order, at a frame
/// boundary. Mixing main-thread and background applies is refused with a message, as
/// UIKit complains; ``reconfigureItems(_:)`` never reorders anything and is allowed in both.
public final class DiffableDataSource<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable> {
    /// The view it feeds (it does not keep it alive: the view's owner does).
    public unowned let collectionView: CollectionView<SectionID, ItemID>
    private var pending: [PendingUpdate] = []
    private var current: Snapshot<SectionID, ItemID>
    private var mode: Mode?
    private let inbox: BackgroundApplies<SectionID, ItemID>
    /// Snapshots and changesets the last commit replaced. Freeing a million-item snapshot
    /// takes milliseconds (its buffers go back to the system), so the main thread never
    /// drops the last reference: the next ``applyFinishedUpdates(at:)`` hands them to the background queue, by
    /// when the view has let go of them too.
    private var retired: [Snapshot<SectionID, ItemID>] = []
    private var retiredChanges: [Changeset<SectionID, ItemID>] = []

    enum Mode { case main, background }

    /// What the next ``applyFinishedUpdates(at:)`` hands the view, in the order it was asked for.
    private enum PendingUpdate {
        case apply(snapshot: Snapshot<SectionID, ItemID>, changes: Changeset<SectionID, ItemID>, animated: Bool)
        case reconfigure([ItemID])
    }

    /// A data source showing `initial` at once (no diff, no animation: the first load), whose
    /// background applies run as `execution` says.
    public init(collectionView: CollectionView<SectionID, ItemID>, initial: Snapshot<SectionID, ItemID>? = nil,
                execution: BackgroundExecution = .serialQueue) {
        self.collectionView = collectionView
        if let initial { collectionView.reloadData(initial.clearingUpdateMarks()) }
        current = collectionView.snapshot
        inbox = BackgroundApplies(base: current, execution: execution)
    }

    /// A copy of the current truth, without update marks: change it and apply it.
    /// - Complexity: O(1).
    public func snapshot() -> Snapshot<SectionID, ItemID> { current.clearingUpdateMarks() }

    /// - Complexity: O(1).
    public var numberOfItems: Int {
        @_specialize(exported: true, where SectionID == Int, ItemID == Int)
        get { current.numberOfItems }
    }

    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func itemIdentifier(for indexPath: ItemPath) -> ItemID? { current.itemIdentifier(at: indexPath) }

    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func indexPath(for item: ItemID) -> ItemPath? { current.indexPath(for: item) }

    /// Whether the current snapshot holds `item`.
    /// - Complexity: O(1).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func contains(_ item: ItemID) -> Bool { current.contains(item: item) }

    /// Diffs `snapshot` against the current one now; the cells change after the owner's next ``applyFinishedUpdates(at:)``.
    /// - Complexity: that of `Snapshot.changeset(to:)`.
    public func apply(_ snapshot: Snapshot<SectionID, ItemID>, animatingDifferences: Bool = true) {
        claim(.main, "apply(_:animatingDifferences:)")
        pending.append(.apply(snapshot: snapshot, changes: current.changeset(to: snapshot), animated: animatingDifferences))
        current = snapshot.clearingUpdateMarks()
    }

    /// `snapshot.reconfigureItems(items)` then `apply`, without copying or diffing the
    /// snapshot: what an image that arrives, or a like, needs, in O(items) however large
    /// the data. Items not in the current snapshot are ignored. Ordered with the applies
    /// around it (the cells change after the owner's next ``applyFinishedUpdates(at:)``).
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    public func reconfigureItems(_ items: [ItemID]) {
        let present = items.filter { current.contains(item: $0) }
        guard !present.isEmpty else { return }
        pending.append(.reconfigure(present))
    }

    /// Computes the diff on a background thread and commits it, in order, at a later frame
    /// boundary on the main thread. For data so large that the diff would cost a frame.
    public func applyInBackground(_ snapshot: Snapshot<SectionID, ItemID>, animatingDifferences: Bool = true) {
        claim(.background, "applyInBackground(_:animatingDifferences:)")
        inbox.enqueue(snapshot, animated: animatingDifferences)
    }

    /// Builds the snapshot on the background queue too (`build` runs there, after every
    /// apply asked for before it), diffs it there and commits it at a later frame boundary.
    /// A later call supersedes this one: `build` should return nil soon after its
    /// argument says it is superseded, and what a superseded build returns is dropped, so
    /// typing a word quickly never computes its prefixes to the end. Returning nil applies
    /// nothing.
    public func applyInBackground(animatingDifferences: Bool = true,
                                  build: @escaping @Sendable (_ isSuperseded: () -> Bool) -> Snapshot<SectionID, ItemID>?) {
        claim(.background, "applyInBackground(animatingDifferences:build:)")
        inbox.enqueue(animated: animatingDifferences, build: build)
    }

    /// True while background builds and diffs are running or waiting to be committed.
    public var hasBackgroundWork: Bool { inbox.isBusy }

    /// Waits at most `timeout` for the background builds and diffs asked for so far to
    /// finish (they are then committed by the next ``applyFinishedUpdates(at:)``); true when
    /// they have. A frame that has the time can show a small query's result at once instead
    /// of a frame later. Main thread; never waits longer than `timeout`.
    @discardableResult
    public func waitForBackgroundWork(timeout: Duration) -> Bool { inbox.waitUntilFinished(timeout: timeout) }

    /// True while snapshots replaced by an apply (or let go by the view) wait for the next
    /// commit to hand them to the queue that frees them. A loop that goes quiet must run
    /// that commit first: otherwise a replaced snapshot of a million items (about 60 MB)
    /// stays alive for as long as nothing moves.
    public var holdsReplacedSnapshots: Bool { !retired.isEmpty || !retiredChanges.isEmpty || !collectionView.applied.letGo.isEmpty }

    /// Gives the memory freed with big snapshots (100,000 items or more) back to the
    /// system, if any was freed since the last call: `malloc_trim`, on the calling thread,
    /// a few milliseconds. Call it when the frame loop goes quiet, never inside frames:
    /// trimming takes each malloc arena's lock in turn, and a commit that frees memory
    /// meanwhile waits (D-056). Without it, each thread that freed a snapshot keeps the
    /// memory in its arena for reuse (D-028).
    public func returnFreedMemoryIfWanted() { inbox.returnFreedMemoryIfWanted() }

    private func claim(_ wanted: Mode, _ operation: String) {
        if let mode, mode != wanted {
            preconditionFailure("DiffableDataSource.\(operation): this data source has been applied from the \(mode == .main ? "main thread" : "background"); always apply the same way (seed 002), or the order of updates is lost")
        }
        mode = wanted
    }

    /// Hands the collection view what was applied since the last frame, in order: the
    /// owner calls it once a frame, before the view's commit (updates go one way, from the
    /// data to the view; the view does not know its data source). Returns whether anything
    /// was handed over.
    @_specialize(exported: true, where SectionID == Int, ItemID == Int)
    @discardableResult
    public func applyFinishedUpdates(at time: Duration) -> Bool {
        if !collectionView.applied.letGo.isEmpty {
            retired.append(contentsOf: collectionView.applied.letGo)
            collectionView.applied.letGo.removeAll()
        }
        if !retired.isEmpty || !retiredChanges.isEmpty { inbox.release(&retired, &retiredChanges) }
        for update in inbox.takeFinished() { pending.append(.apply(snapshot: update.snapshot, changes: update.changes, animated: update.animated)) }
        for update in pending {
            switch update {
            case .apply(let snapshot, let changes, let animated):
                retired.append(current)
                retiredChanges.append(changes)
                current = snapshot.clearingUpdateMarks()
                collectionView.applyUpdate(snapshot, changes: changes, animated: animated, at: time)
            case .reconfigure(let items):
                collectionView.reconfigure(items.filter { current.contains(item: $0) })
            }
        }
        defer { pending.removeAll() }
        return !pending.isEmpty
    }
}

import Synchronization

/// The handle a download returns. Cancelling is final and thread-safe: queued work is
/// skipped, running work stops at its next check, and a completion already posted is
/// dropped when the main thread delivers it.
public final class Cancellable: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let currentPriority: Atomic<Int>

    /// A live handle for a request of `priority`.
    public init(priority: Int = 0) { currentPriority = Atomic(priority) }

    /// The request's priority now (lower sooner, ``RequestPriority``): set again when the
    /// cell a prefetch was for becomes visible, read by a loader that can reorder its queue.
    public var priority: Int {
        get { currentPriority.load(ordering: .relaxed) }
        set { currentPriority.store(newValue, ordering: .relaxed) }
    }

    /// Cancels the request, from any thread; calling it again does nothing.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

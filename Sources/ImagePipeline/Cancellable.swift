import Synchronization

/// The handle a download returns. Cancelling is final and thread-safe: queued work is
/// skipped, running work stops at its next check, and a completion already posted is
/// dropped when the main thread delivers it.
public final class Cancellable: Sendable {
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

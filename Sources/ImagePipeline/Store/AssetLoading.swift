import CoreKit

/// What a loader did so far.
public struct AssetLoadCounters: Sendable, Hashable {
    /// Preparations that ran (decode + convert).
    public var prepared = 0
    /// Requests cancelled before any work started.
    public var skipped = 0
    /// Requests cancelled during their transfer or before preparation began (nothing prepared).
    public var abandoned = 0
    /// Results that arrived after their request was cancelled (cached, not delivered).
    public var dropped = 0
    /// Requests whose image could not be prepared.
    public var failed = 0

    /// All zero.
    public init() {}
}

/// The background half of an ``AssetStore``: fetches and prepares, and posts each
/// request's result to `inbox` (the store caches it). Called on the store's (main) thread.
public protocol AssetLoading: AnyObject {
    /// Where finished requests are posted, for the store to drain on its thread.
    var inbox: Mailbox<AssetCompletion> { get }
    /// What the loader did so far.
    var counters: AssetLoadCounters { get }
    /// Starts a request; false when it cannot be taken without waiting (the store keeps it
    /// and tries again at the next delivery).
    func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) -> Bool
    /// Called before each drain of `inbox`, at the start of a frame: a scripted loader posts
    /// what is due by now; the network loader reads the frame's cancellations and priorities.
    /// A loader with nothing to do per frame leaves the default.
    func postDueCompletions()
    /// Called right after each commit: a loader that defers starting what ``load(_:request:priority:cancellation:)``
    /// queued (so that a frame's requests start in priority order, and no thread is woken
    /// in the middle of a commit) starts it here, and stops the work the commit did not ask
    /// for again. Default: nothing.
    func startQueuedWork()
    /// A scripted loader's next completion time (threads: nil).
    var nextDueTime: Duration? { get }
    /// The next ``postDueCompletions()`` or ``startQueuedWork()`` has something to do: a
    /// scripted loader's completions due by now, the network loader's requests waiting to
    /// start. A quiet frame loop does not sleep while it is true.
    var hasDueCompletions: Bool { get }
    /// Called after each commit with whether the terminal is still working on what the app
    /// sent (bytes it has not read, pixels it has not parsed): a loader whose threads compete
    /// with it for the cores leaves it one while it works (D-083). Default: nothing.
    func noteTerminalBusy(_ busy: Bool)
}

extension AssetLoading {
    public func postDueCompletions() {}
    public func startQueuedWork() {}
    public var nextDueTime: Duration? { nil }
    public var hasDueCompletions: Bool { false }
    public func noteTerminalBusy(_ busy: Bool) {}
}

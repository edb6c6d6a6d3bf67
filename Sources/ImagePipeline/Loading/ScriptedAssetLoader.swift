import CoreKit

/// An ``AssetLoading`` without threads, for simulations and tests on a virtual clock:
/// request *n* completes `latency(n)` after it was made (by the caller's clock), prepared
/// by a closure, in a fixed order. Nothing depends on how fast the machine is, so a whole
/// app run on a virtual clock gives the same figures every time.
///
/// Single-threaded: it belongs to the thread of its ``AssetStore``.
public final class ScriptedAssetLoader: AssetLoading {
    public let inbox = Mailbox<AssetCompletion>()
    public private(set) var counters = AssetLoadCounters()
    private let now: () -> Duration
    private let latency: (Int) -> Duration
    private let prepare: (PreparedImageKey) -> Result<CellImage, ImageError>
    private var inFlight: [(due: Duration, request: Int, key: PreparedImageKey, cancellation: Cancellable)] = []

    /// - Parameters:
    ///   - now: the clock the store's owner runs on.
    ///   - latency: transfer plus preparation time of request number `n`.
    ///   - prepare: what the request yields (a real ``ImagePreparer``, or a cheap stand-in).
    public init(now: @escaping () -> Duration, latency: @escaping (Int) -> Duration,
                prepare: @escaping (PreparedImageKey) -> Result<CellImage, ImageError>) {
        self.now = now
        self.latency = latency
        self.prepare = prepare
    }

    public var nextDueTime: Duration? { inFlight.lazy.map(\.due).min() }

    public var hasDueCompletions: Bool {
        let time = now()
        return inFlight.contains { $0.due <= time }
    }

    /// Requests neither posted nor dropped yet.
    public var inFlightCount: Int { inFlight.count }

    public func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) -> Bool {
        inFlight.append((now() + latency(request), request, key, cancellation))
        return true
    }

    /// Posts every request due by now, earliest first (ties by request number); a request
    /// cancelled by then is abandoned, as a worker abandons a cancelled transfer.
    public func postDueCompletions() {
        let time = now()
        let due = inFlight.filter { $0.due <= time }.sorted { ($0.due, $0.request) < ($1.due, $1.request) }
        guard !due.isEmpty else { return }
        inFlight.removeAll { $0.due <= time }
        for request in due {
            if request.cancellation.isCancelled {
                counters.abandoned += 1
                continue
            }
            switch prepare(request.key) {
            case .success(let image):
                counters.prepared += 1
                inbox.post(AssetCompletion(request: request.request, key: request.key, result: .success(image)))
            case .failure(let error):
                counters.failed += 1
                inbox.post(AssetCompletion(request: request.request, key: request.key, result: .failure(error)))
            }
        }
    }
}

import CoreKit

/// Where an asset's original file comes from. The default is a local directory that
/// behaves like a server: every fetch waits a simulated network latency first.
public protocol AssetSource: Sendable {
    /// Blocks the calling worker until the file is available and returns its local path,
    /// or returns nil as soon as `cancellation` is cancelled.
    func fetch(_ asset: AssetID, request: Int, cancellation: Cancellable) throws(ImageError) -> String?
}

/// Files on disk behind a simulated network: `latency` ± `jitter` per request, drawn from
/// a seeded generator so runs repeat. A latency of zero is a plain disk read.
public struct SimulatedNetworkSource: AssetSource {
    /// The mean wait per request.
    public let latency: Duration
    /// How far a request's wait may be from the mean, either way.
    public let jitter: Duration
    /// Fixes the sequence of waits.
    public let seed: UInt64

    /// Requests wait `latency` ± `jitter`, drawn from `seed`.
    public init(latency: Duration = .milliseconds(80), jitter: Duration = .milliseconds(40), seed: UInt64 = 1) {
        precondition(latency >= .zero && jitter >= .zero, "SimulatedNetworkSource needs latency and jitter >= 0")
        self.latency = latency
        self.jitter = jitter
        self.seed = seed
    }

    /// The delay request number `request` waits (the same for the same seed and number).
    public func delay(forRequest request: Int) -> Duration {
        guard jitter > .zero else { return latency }
        var rng = SplitMix64(seed: seed &+ UInt64(truncatingIfNeeded: request) &* 0x9E37_79B9)
        let spread = jitter.nanoseconds * 2
        let offset = Int64(rng.next() % UInt64(spread + 1)) - jitter.nanoseconds
        return max(.zero, latency + .nanoseconds(offset))
    }

    public func fetch(_ asset: AssetID, request: Int, cancellation: Cancellable) throws(ImageError) -> String? {
        var remaining = delay(forRequest: request)
        let slice = Duration.milliseconds(5)
        while remaining > .zero {
            if cancellation.isCancelled { return nil }
            let step = min(slice, remaining)
            Platform.sleep(for: step)
            remaining -= step
        }
        return cancellation.isCancelled ? nil : asset.path
    }
}

/// Files on disk, read as they are: the source for a photo browser of local files.
public struct LocalFileSource: AssetSource {
    /// A source that hands workers the asset's own path.
    public init() {}

    /// The asset's path at once, or nil when the request was cancelled before it ran.
    public func fetch(_ asset: AssetID, request: Int, cancellation: Cancellable) throws(ImageError) -> String? {
        cancellation.isCancelled ? nil : asset.path
    }
}

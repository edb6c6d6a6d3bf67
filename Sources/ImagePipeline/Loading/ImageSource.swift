import CoreKit

/// Where a photo comes from, for the one ``ImageLoader``: a folder on disk, a folder behind
/// a simulated network, or an HTTP client (FeedClient's `HTTPFetcher`). A source only
/// fetches; the loader coalesces, orders, cancels and prepares the same way for all of them
/// (issue 44: two source protocols and three loaders had the prepare step written twice).
///
/// Called on the loader's transfer tasks, never on the frame loop's thread. Cancelling the
/// calling task stops the fetch (and a network source's connection).
public protocol ImageSource: Sendable {
    /// The photo at `url` (a file path for a folder), read up to `kind`'s cap. `request`
    /// is the number of the first request that asked (a simulated network's seeded delay);
    /// `onBytes` hears of every chunk as it arrives, with the length the server declared.
    func image(at url: String, kind: PhotoKind, request: Int,
               onBytes: @escaping @Sendable (_ bytes: Int, _ declaredLength: Int?) -> Void) async throws(ImageError) -> ImageInput
    /// The photo at `url` when a kept copy may be used without asking (fresh in a disk
    /// cache), read on the transfer's task; nil: ask. A kept copy takes no start from the
    /// rate limit: the limit is there for the server.
    func keptImage(at url: String) -> ImageInput?
}

extension ImageSource {
    /// No kept copies: every photo is asked for.
    public func keptImage(at url: String) -> ImageInput? { nil }
}

/// What a source hands the preparer: a file to read on the decoding worker (a local photo,
/// where the thumbnail cache and EXIF thumbnails apply), or the bytes a transfer brought.
public enum ImageInput: Sendable {
    /// A local file, read by the worker that decodes it.
    case file(path: String)
    /// A body already in memory.
    case bytes([UInt8])
}

/// Which body a transfer reads, for its size cap.
public enum PhotoKind: Sendable {
    /// A grid cell's thumbnail (a status's `preview_url`), or its prefetch.
    case preview
    /// The photo the detail view shows large (the original).
    case original
}

/// Files on disk behind a simulated network: `latency` ± `jitter` per request, drawn from
/// a seeded generator so runs repeat. A latency of zero is a plain disk read.
public struct SimulatedNetworkSource: ImageSource {
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

    /// The file at `url` after request `request`'s delay; a cancelled task stops waiting at once.
    public func image(at url: String, kind: PhotoKind, request: Int,
                      onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
        let delay = delay(forRequest: request)
        if delay > .zero {
            do { try await Task.sleep(for: delay) } catch { throw .interrupted(path: url, reason: "cancelled") }
        }
        return .file(path: url)
    }
}

/// Files on disk, read as they are: the source for a photo browser of local files.
public struct LocalFileSource: ImageSource {
    /// A source that hands the preparer the asset's own path.
    public init() {}

    /// The file at `url`, at once (its worker reads it).
    public func image(at url: String, kind: PhotoKind, request: Int,
                      onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
        .file(path: url)
    }
}

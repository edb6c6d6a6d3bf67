import FeedFormat
import ImagePipeline

/// The image pipeline's loader fetches a feed's photos through its client.
extension HTTPFetcher: ImageSource {
    /// The largest preview read: Mastodon's are tens of kilobytes, and 24 connections of
    /// endless bodies must not take the process past 300 MB (issue 43).
    public static let previewLimit = 4 << 20
    /// The largest original read (the detail view's, one at a time): Mastodon takes images up
    /// to 16 MB; a 2 GB body is refused at this size, not read.
    public static let photoLimit = 32 << 20
    public static let photoDeadline: Duration = .seconds(60)

    /// A fresh copy in the disk cache, read without asking the network (counted as a hit).
    public func keptImage(at url: String) -> ImageInput? { keptFresh(url).map { .bytes($0.bytes) } }

    /// The photo at `url`, as ``photo(at:kind:onBytes:)`` reads it.
    public func image(at url: String, kind: PhotoKind, request: Int, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
        .bytes(try await photo(at: url, kind: kind, onBytes: onBytes))
    }

    /// The photo at `url` through the disk cache when there is one (issue 26), resumed after a
    /// dropped connection where the server names the copy (D-044), read up to the original's cap.
    public func photo(at url: String, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> [UInt8] {
        try await photo(at: url, kind: .original, onBytes: onBytes)
    }

    /// Read up to `kind`'s cap (``previewLimit`` or ``photoLimit``).
    public func photo(at url: String, kind: PhotoKind, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> [UInt8] {
        do {
            return try await fetchCached(url, limit: kind == .preview ? Self.previewLimit : Self.photoLimit, deadline: Self.photoDeadline, resuming: true, offline: true, onBytes: onBytes).bytes
        } catch {
            let path = PlainText.clean(url)
            // No server and no kept copy: the placeholder (the post's BlurHash) is marked, and
            // the photo asked for again when the network is back (the feed's probe says so).
            if case .unreachable = error { throw .unavailable(path: path, reason: error.description) }
            // A 5xx, a timeout, a drop that could not be resumed, while pages may well arrive:
            // marked, and asked for again after a backoff (the store's), as a failed page is.
            if error.isTransient { throw .interrupted(path: path, reason: error.description) }
            throw .unreadable(path: path, reason: error.description)
        }
    }
}

/// Where a ``NetworkAssetLoader``'s bytes come from: an HTTP client (FeedClient's
/// `HTTPFetcher`), or a script in tests.
public protocol PhotoTransport: Sendable {
    /// The body at `url`. `onBytes` hears of every chunk as it arrives, with the length the
    /// server declared; cancelling the calling task stops the transfer and its bytes.
    func photo(at url: String, onBytes: @escaping @Sendable (_ bytes: Int, _ declaredLength: Int?) -> Void) async throws(ImageError) -> [UInt8]
    /// The same, read up to `kind`'s body cap: a thumbnail's preview is held to far less
    /// than the detail view's original (issue 43: endless bodies on every connection).
    func photo(at url: String, kind: PhotoKind, onBytes: @escaping @Sendable (_ bytes: Int, _ declaredLength: Int?) -> Void) async throws(ImageError) -> [UInt8]
    /// The photo at `url` when a kept copy may be used without asking the network (fresh
    /// in a disk cache), read on the calling thread (a transfer's task); nil: ask. A kept
    /// copy takes no start from the rate limit: the limit is there for the server.
    func keptPhoto(at url: String) -> [UInt8]?
}

extension PhotoTransport {
    /// No kept copies: every photo is asked for.
    public func keptPhoto(at url: String) -> [UInt8]? { nil }
    /// Every kind read alike (a transport with no cap of its own).
    public func photo(at url: String, kind: PhotoKind, onBytes: @escaping @Sendable (_ bytes: Int, _ declaredLength: Int?) -> Void) async throws(ImageError) -> [UInt8] {
        try await photo(at: url, onBytes: onBytes)
    }
}

/// Which body a transfer reads, for its size cap.
public enum PhotoKind: Sendable {
    /// A grid cell's thumbnail (a status's `preview_url`), or its prefetch.
    case preview
    /// The photo the detail view shows large (the original).
    case original
}

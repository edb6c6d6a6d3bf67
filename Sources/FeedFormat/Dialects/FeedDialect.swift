/// What a kind of server's API looks like to the client: where a feed's pages are, how a
/// page reads, and how a like is sent and answered. `FeedPager` and `LikeOutbox` (FeedClient)
/// speak only to this; ``MastodonDialect`` is the implementation for Mastodon and the
/// servers that answer its API (Pleroma, Akkoma, GoToSocial, destinations-feed).
///
/// To add a dialect: a file here implementing the protocol, and one line in
/// ``FeedDialects/known``. Everything is pure (no network, no clock), so a dialect is
/// tested and fuzzed on bytes alone.
public protocol FeedDialect: Sendable {
    /// A short name for messages and the report.
    var name: String { get }
    /// Whether this dialect is the one for a feed at `feedURL` (the last known one answers
    /// for everything else).
    func recognises(_ feedURL: String) -> Bool
    /// The first page's URL for the feed the person named (a page size added, say).
    func firstPage(of feedURL: String) -> String
    /// Headers every page request sends.
    var pageHeaders: [(String, String)] { get }
    /// A page's body and its `Link` header, read: the posts (with a photo), those skipped,
    /// and the next page's target as the server wrote it (the pager resolves it).
    func parsePage(_ body: [UInt8], link: String?) throws(FeedError) -> TimelinePage
    /// The request that likes (`liked`) or unlikes the post `statusID` of the feed at
    /// `feedURL`; nil when the id cannot be put in a URL.
    func likeRequest(statusID: String, liked: Bool, feedURL: String) -> LikeRequest?
    /// Whether the answer to a like request is the post, liked (true) or not (false); nil
    /// when it is not the post at all.
    func likeAnswer(_ body: [UInt8]) -> Bool?
}

/// A like as a request: where it goes and how (the outbox adds its idempotency key).
public struct LikeRequest: Sendable, Equatable {
    public var url: String
    public var method: String

    /// A request to `url` with `method` (`POST` for Mastodon's favourite).
    public init(url: String, method: String) {
        self.url = url
        self.method = method
    }
}

/// The dialects the client knows, and which one a feed speaks.
public enum FeedDialects {
    /// In the order they are asked; the last answers for any feed.
    public static let known: [any FeedDialect] = [MastodonDialect()]

    /// The dialect for a feed at `feedURL` (Mastodon's reads the person's filters in the
    /// timeline's context).
    public static func forFeed(_ feedURL: String) -> any FeedDialect {
        let dialect = known.first { $0.recognises(feedURL) } ?? MastodonDialect()
        return dialect is MastodonDialect ? MastodonDialect(filterContext: FilterContext(timelineURL: feedURL)) : dialect
    }
}

import Foundation

/// Mastodon's API (v1), which Pleroma, Akkoma, GoToSocial and destinations-feed answer too:
/// a timeline is `GET …?limit=40` with `Link rel="next"` (RFC 8288), a status array in the
/// body (``TimelinePage``); a like is `POST …/api/v1/statuses/:id/favourite` (or
/// `/unfavourite`), answered with the status (``FavouriteAnswer``).
public struct MastodonDialect: FeedDialect {
    /// Statuses asked for a page when the feed's URL names no `limit` (Mastodon's most).
    public static let pageSize = 40

    /// Where its timeline is read, for the person's filters (nil: every filter applies).
    public var filterContext: FilterContext?

    /// Mastodon's API; `filterContext`: where the timeline is read.
    public init(filterContext: FilterContext? = nil) { self.filterContext = filterContext }

    public var name: String { "Mastodon" }

    /// Any feed: the API most servers of the fediverse answer.
    public func recognises(_ feedURL: String) -> Bool { true }

    /// `feedURL` with `limit=40` added when it names no limit.
    public func firstPage(of feedURL: String) -> String {
        guard var components = URLComponents(string: feedURL) else { return feedURL }
        var items = components.queryItems ?? []
        if !items.contains(where: { $0.name == "limit" }) { items.append(URLQueryItem(name: "limit", value: String(Self.pageSize))) }
        components.queryItems = items
        return components.string ?? feedURL
    }

    public var pageHeaders: [(String, String)] { [("Accept", "application/json")] }

    public func parsePage(_ body: [UInt8], link: String?) throws(FeedError) -> TimelinePage {
        try TimelinePage.parse(body, link: link, context: filterContext)
    }

    public func likeRequest(statusID: String, liked: Bool, feedURL: String) -> LikeRequest? {
        guard let id = statusID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
        return LikeRequest(url: Self.statusesURL(feedURL: feedURL) + id + (liked ? "/favourite" : "/unfavourite"), method: "POST")
    }

    public func likeAnswer(_ body: [UInt8]) -> Bool? { FavouriteAnswer.favourited(in: body) }

    /// `https://host/api/v1/statuses/` for a timeline at `https://host/…/api/v1/timelines/…`
    /// (a server under a path prefix keeps it), else the origin's `/api/v1/statuses/`.
    public static func statusesURL(feedURL: String) -> String {
        guard var components = URLComponents(string: feedURL) else { return feedURL }
        let path = components.path
        let prefix = path.range(of: "/api/v1/").map { String(path[..<$0.lowerBound]) } ?? ""
        components.path = prefix + "/api/v1/statuses/"
        components.query = nil
        components.fragment = nil
        return components.string ?? feedURL
    }
}

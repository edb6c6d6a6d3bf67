/// Where a timeline is read, as Mastodon's filters name it: a filter applies only in the
/// contexts it lists (a filter for notifications hides nothing in a hashtag's timeline).
/// Mastodon sends every filter a status matches, whatever the timeline, and leaves the
/// choice to the client — its web UI checks the context the same way.
public enum FilterContext: String, Sendable, CaseIterable {
    /// The home timeline and lists.
    case home
    /// Public, local and hashtag timelines.
    case `public`
    /// An account's statuses.
    case account

    /// The context of the timeline at `url`, by its path (Mastodon's API paths; anything
    /// else is read as a public timeline).
    public init(timelineURL url: String) {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        if path.contains("/api/v1/timelines/home") || path.contains("/api/v1/timelines/list/") {
            self = .home
        } else if path.contains("/api/v1/accounts/") && path.hasSuffix("/statuses") {
            self = .account
        } else {
            self = .public
        }
    }
}

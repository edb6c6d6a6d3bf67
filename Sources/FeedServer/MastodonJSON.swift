import Foundation

// The subset of Mastodon's entities the app reads, with Mastodon's field names.
struct StatusJSON: Encodable {
    var id: String
    var created_at: String
    var content: String
    var url: String
    var favourites_count: Int
    var favourited: Bool
    var account: AccountJSON
    var media_attachments: [AttachmentJSON]
    // What real servers add (`--shapes fediverse`, issue 45); absent when nil.
    var sensitive: Bool? = nil
    var spoiler_text: String? = nil
    var filtered: [FilterResultJSON]? = nil
    var reblog: Reblog? = nil
}

/// A boost's inner status (boxed: a struct cannot hold itself).
final class Reblog: Encodable, Sendable {
    let status: StatusJSON
    init(_ status: StatusJSON) { self.status = status }
    func encode(to encoder: any Encoder) throws { try status.encode(to: encoder) }
}

/// Mastodon 4's `FilterResult`: which of the person's filters matched, and its action.
struct FilterResultJSON: Encodable, Sendable {
    struct Filter: Encodable, Sendable {
        let id: String
        let title: String
        let context: [String]
        let filter_action: String
    }
    let filter: Filter
    let keyword_matches: [String]?
    let status_matches: [String]?
}

struct AccountJSON: Encodable {
    let id: String
    let username: String
    let acct: String
    let display_name: String
}

struct AttachmentJSON: Encodable {
    struct Size: Encodable {
        let width: Int
        let height: Int
    }

    struct Meta: Encodable {
        let original: Size
        let small: Size
    }

    var id: String
    var type: String
    var url: String
    var preview_url: String
    var description: String?
    var blurhash: String?
    var meta: Meta
}

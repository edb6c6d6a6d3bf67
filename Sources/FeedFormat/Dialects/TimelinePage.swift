import Foundation

/// Why a page of a feed could not be read; shown in the header (or, at start, printed).
public enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is HTML (a login page, an error page, a captive portal).
    case html
    /// The body is not JSON, or is cut short.
    case malformedJSON(String)
    /// JSON, but not a list of statuses (`{"error": "…"}` says why, when a server says).
    case notATimeline(String?)

    public var description: String {
        switch self {
        case .html: "the server sent a web page, not a timeline"
        case .malformedJSON(let reason): "the timeline is not valid JSON (\(reason))"
        case .notATimeline(let message?): "the server said: \(message)"
        case .notATimeline(nil): "the response is not a list of statuses"
        }
    }
}

/// One page of a timeline: the posts with an image, how many statuses were skipped, and
/// where the next page is.
public struct TimelinePage: Sendable, Hashable {
    public var posts: [FeedPost]
    /// Statuses without an image attachment, or too malformed to show (each counted once).
    public var skipped: Int
    /// The `Link` header's `rel="next"` (nil: the last page).
    public var next: String?

    public init(posts: [FeedPost], skipped: Int, next: String?) {
        self.posts = posts
        self.skipped = skipped
        self.next = next
    }

    /// Longest title kept (a status may be 5,000 characters; a cell shows thirty).
    public static let maximumTitleLength = 300
    /// Longest URL accepted.
    public static let maximumURLLength = 4096

    /// Reads a `GET /api/v1/timelines/…` body (a JSON array of statuses) and its `Link`
    /// header. A status that cannot be shown is skipped and counted, never fatal: a
    /// missing or odd field, no image, a URL that is not http(s). Only a body that is not
    /// a list at all is an error.
    /// - Complexity: O(n) in the body's size.
    public static func parse(_ body: [UInt8], link: String?) throws(FeedError) -> TimelinePage {
        let firstVisible = body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if firstVisible == UInt8(ascii: "<") { throw .html }
        let statuses: [Lenient<Status>]
        do {
            statuses = try JSONDecoder().decode([Lenient<Status>].self, from: Data(body))
        } catch let error as DecodingError {
            if case .typeMismatch = error { throw .notATimeline(Self.serverMessage(in: body)) }
            throw .malformedJSON(Self.reason(error))
        } catch {
            throw .malformedJSON("\(error)")
        }
        var posts: [FeedPost] = []
        var skipped = 0
        for status in statuses {
            if let post = status.value.flatMap(Self.post(from:)) { posts.append(post) } else { skipped += 1 }
        }
        return TimelinePage(posts: posts, skipped: skipped, next: LinkHeader.next(in: link))
    }

    /// The `error` string of a JSON object body (Mastodon's error shape), cleaned.
    static func serverMessage(in body: [UInt8]) -> String? {
        struct ErrorBody: Decodable { let error: String }
        guard let message = try? JSONDecoder().decode(ErrorBody.self, from: Data(body)).error else { return nil }
        let cleaned = PlainText.clean(String(message.prefix(200)))
        return cleaned.isEmpty ? nil : cleaned
    }

    static func reason(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): return context.underlyingError.map { _ in "cut short or corrupt" } ?? context.debugDescription
        default: return "cut short or corrupt"
        }
    }

    static func post(from status: Status) -> FeedPost? {
        let shown = status.reblog?.value ?? status.asReblogged
        guard let id = status.id, let attachment = shown.mediaAttachments?.compactMap(\.value).first(where: { $0.type == "image" }) else { return nil }
        guard let photo = attachment.url.flatMap(Self.webURL) else { return nil }
        let thumbnail = attachment.previewURL.flatMap(Self.webURL) ?? photo
        var title = attachment.description.map(PlainText.clean) ?? ""
        if title.isEmpty { title = shown.content.map(PlainText.fromHTML) ?? "" }
        if title.isEmpty { title = "Untitled" }
        if title.count > maximumTitleLength { title = String(title.prefix(maximumTitleLength - 1)) + "…" }
        var region = shown.account?.displayName.map(PlainText.clean) ?? ""
        if region.isEmpty { region = shown.account?.acct.map(PlainText.clean) ?? "" }
        if region.isEmpty { region = "Unknown" }
        let size = attachment.meta?.original
        return FeedPost(statusID: id, title: title, region: String(region.prefix(maximumTitleLength)),
                        likes: max(0, shown.favouritesCount ?? 0), favourited: shown.favourited ?? false,
                        thumbnailURL: thumbnail, photoURL: photo,
                        width: size?.width.flatMap { $0 > 0 ? $0 : nil }, height: size?.height.flatMap { $0 > 0 ? $0 : nil },
                        blurhash: attachment.blurhash.flatMap { $0.count <= 200 ? $0 : nil })
    }

    /// `text` if it is an http or https URL of a sane length; nothing else is ever fetched.
    static func webURL(_ text: String) -> String? {
        guard text.utf8.count <= maximumURLLength, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
        return text
    }
}

// MARK: The statuses as the JSON has them

/// A value that decodes to nil instead of failing its container.
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?
    init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
}

/// A string or a number (ids are strings in Mastodon, numbers in some servers).
struct FlexibleString: Decodable {
    let text: String
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) { self.text = text } else { text = String(try container.decode(Int64.self)) }
    }
}

struct Status: Decodable {
    var id: String?
    var content: String?
    var account: Account?
    var favouritesCount: Int?
    var favourited: Bool?
    var mediaAttachments: [Lenient<Attachment>]?
    var reblog: Box?

    /// A boost's inner status (boxed: a struct cannot hold itself).
    final class Box: Decodable {
        let value: Status?
        init(from decoder: any Decoder) throws { value = try? Status(from: decoder) }
    }

    struct Account: Decodable {
        var displayName: String?
        var acct: String?
        enum CodingKeys: String, CodingKey { case displayName = "display_name", acct }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            displayName = try? c.decodeIfPresent(String.self, forKey: .displayName)
            acct = try? c.decodeIfPresent(String.self, forKey: .acct)
        }
    }

    struct Attachment: Decodable {
        var type: String?
        var url: String?
        var previewURL: String?
        var description: String?
        var blurhash: String?
        var meta: Meta?
        enum CodingKeys: String, CodingKey { case type, url, previewURL = "preview_url", description, blurhash, meta }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try? c.decodeIfPresent(String.self, forKey: .type)
            url = try? c.decodeIfPresent(String.self, forKey: .url)
            previewURL = try? c.decodeIfPresent(String.self, forKey: .previewURL)
            description = try? c.decodeIfPresent(String.self, forKey: .description)
            blurhash = try? c.decodeIfPresent(String.self, forKey: .blurhash)
            meta = try? c.decodeIfPresent(Meta.self, forKey: .meta)
        }
    }

    struct Meta: Decodable {
        var original: Size?
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            original = try? c.decodeIfPresent(Size.self, forKey: .original)
        }
        enum CodingKeys: String, CodingKey { case original }
    }

    struct Size: Decodable {
        var width: Int?
        var height: Int?
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            width = try? c.decodeIfPresent(Int.self, forKey: .width)
            height = try? c.decodeIfPresent(Int.self, forKey: .height)
        }
        enum CodingKeys: String, CodingKey { case width, height }
    }

    enum CodingKeys: String, CodingKey {
        case id, content, account, favouritesCount = "favourites_count", favourited, mediaAttachments = "media_attachments", reblog
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = (try? c.decodeIfPresent(FlexibleString.self, forKey: .id))?.text
        content = try? c.decodeIfPresent(String.self, forKey: .content)
        account = try? c.decodeIfPresent(Account.self, forKey: .account)
        favouritesCount = try? c.decodeIfPresent(Int.self, forKey: .favouritesCount)
        favourited = try? c.decodeIfPresent(Bool.self, forKey: .favourited)
        mediaAttachments = try? c.decodeIfPresent([Lenient<Attachment>].self, forKey: .mediaAttachments)
        reblog = try? c.decodeIfPresent(Box.self, forKey: .reblog)
    }

    /// Itself, as the status whose content a boost shows.
    var asReblogged: Status { self }
}

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

/// One page of a timeline: the posts with a picture, how many statuses were skipped or
/// filtered out, and where the next page is.
public struct TimelinePage: Sendable, Hashable {
    public var posts: [FeedPost]
    /// Statuses without a picture, or too malformed to show (each counted once).
    public var skipped: Int
    /// Statuses a filter of the person's own says to hide (`filter_action: "hide"`).
    public var filteredOut: Int
    /// The `Link` header's `rel="next"` (nil: the last page).
    public var next: String?

    public init(posts: [FeedPost], skipped: Int, filteredOut: Int = 0, next: String?) {
        self.posts = posts
        self.skipped = skipped
        self.filteredOut = filteredOut
        self.next = next
    }

    /// Longest title kept (a status may be 5,000 characters; a cell shows thirty).
    public static let maximumTitleLength = 300
    /// Longest URL accepted.
    public static let maximumURLLength = 4096
    /// Most pictures kept of one status (Mastodon allows 4; other servers more).
    public static let maximumPictures = 16
    /// Longest alt text kept (Mastodon allows 1,500 characters).
    public static let maximumAltTextLength = 1500

    /// Reads a `GET /api/v1/timelines/…` body (a JSON array of statuses) and its `Link`
    /// header. A status that cannot be shown is skipped and counted, never fatal: a
    /// missing or odd field, no image, a URL that is not http(s). Only a body that is not
    /// a list at all is an error. `context`: where the page is read, so that a filter of
    /// the person's applies only where they said (nil: every filter applies).
    /// - Complexity: O(n) in the body's size.
    public static func parse(_ body: [UInt8], link: String?, context: FilterContext? = nil) throws(FeedError) -> TimelinePage {
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
        var skipped = 0, filteredOut = 0
        for status in statuses {
            if status.value.map({ Self.isFilteredOut($0, in: context) }) == true {
                filteredOut += 1
            } else if let post = status.value.flatMap({ Self.post(from: $0, in: context) }) {
                posts.append(post)
            } else {
                skipped += 1
            }
        }
        return TimelinePage(posts: posts, skipped: skipped, filteredOut: filteredOut, next: LinkHeader.next(in: link))
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

    /// A filter of the person's says to hide it (Mastodon 4's `filtered`, on the status or
    /// the boosted one) where the page is read.
    static func isFilteredOut(_ status: Status, in context: FilterContext?) -> Bool {
        filters(of: status, in: context).contains { $0.action == "hide" }
    }

    /// The person's filters that `status` (and the status it boosts) matched and that apply
    /// in `context`.
    static func filters(of status: Status, in context: FilterContext?) -> [Status.FilterResult.Filter] {
        let boosted = status.reblog?.value?.filtered ?? []
        return (boosted + (status.filtered ?? [])).compactMap { $0.value?.filter }.filter { $0.applies(in: context) }
    }

    static func post(from status: Status, in context: FilterContext? = nil) -> FeedPost? {
        let boost = status.reblog?.value
        let shown = boost ?? status
        guard let id = shown.id ?? status.id else { return nil }
        let pictures = (shown.mediaAttachments ?? []).compactMap(\.value).compactMap(Self.picture(from:)).prefix(maximumPictures)
        guard !pictures.isEmpty else { return nil }
        var title = shown.content.map(PlainText.fromHTML) ?? ""
        if title.isEmpty { title = pictures.lazy.compactMap(\.altText).first ?? "" }
        if title.isEmpty { title = "Untitled" }
        let author = shown.account.flatMap(Self.name(of:)) ?? "Unknown"
        return FeedPost(statusID: id, title: Self.cut(title, to: maximumTitleLength), region: String(author.prefix(maximumTitleLength)),
                        likes: max(0, shown.favouritesCount ?? 0), favourited: shown.favourited ?? false, pictures: Array(pictures),
                        warning: warning(for: shown, filters: filters(of: status, in: context)),
                        boostedBy: boost == nil ? nil : status.account.flatMap(Self.name(of:)).map { String($0.prefix(maximumTitleLength)) },
                        url: shown.url.flatMap(Self.webURL))
    }

    /// Why the post is hidden until asked: its content warning, "sensitive", or the title of
    /// a filter that applies and does not hide the status outright (`warn`, and Mastodon 4.4's
    /// `blur`, which hides the media only: here the words too, as for `sensitive`); nil when
    /// nothing hides it. Mastodon's web UI hides the media of a `sensitive` status even
    /// without a warning (toot showed those: toot #529).
    static func warning(for shown: Status, filters: [Status.FilterResult.Filter]) -> String? {
        let spoiler = shown.spoilerText.map(PlainText.clean) ?? ""
        if !spoiler.isEmpty { return cut(spoiler, to: maximumTitleLength) }
        if let warned = filters.first(where: { $0.action != "hide" }) {
            let title = warned.title.map(PlainText.clean) ?? ""
            return cut(title.isEmpty ? "filtered" : "filtered: \(title)", to: maximumTitleLength)
        }
        return shown.sensitive == true ? "sensitive" : nil
    }

    /// An `image` or a `gifv` attachment as a picture (nil for anything else, or one
    /// without an http(s) URL).
    static func picture(from attachment: Status.Attachment) -> FeedPicture? {
        let animated = attachment.type == "gifv"
        guard attachment.type == "image" || animated else { return nil }
        let preview = attachment.previewURL.flatMap(Self.webURL)
        // A gifv's `url` is a video: its still stands for it in the detail view too.
        guard let original = animated ? preview : attachment.url.flatMap(Self.webURL) ?? preview else { return nil }
        let alt = attachment.description.map { Self.cut(PlainText.clean($0), to: maximumAltTextLength) }
        let size = attachment.meta?.original
        return FeedPicture(previewURL: preview ?? original, url: original, altText: alt?.isEmpty == false ? alt : nil, isAnimated: animated,
                           width: size?.width.flatMap { $0 > 0 ? $0 : nil }, height: size?.height.flatMap { $0 > 0 ? $0 : nil },
                           blurhash: attachment.blurhash.flatMap { $0.count <= 200 ? $0 : nil })
    }

    /// An account's `display_name`, else its `acct`, cleaned; nil when both are empty.
    static func name(of account: Status.Account) -> String? {
        let display = account.displayName.map(PlainText.clean) ?? ""
        if !display.isEmpty { return display }
        let acct = account.acct.map(PlainText.clean) ?? ""
        return acct.isEmpty ? nil : acct
    }

    static func cut(_ text: String, to length: Int) -> String {
        text.count > length ? String(text.prefix(length - 1)) + "…" : text
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
    var url: String?
    var sensitive: Bool?
    var spoilerText: String?
    var filtered: [Lenient<FilterResult>]?
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

    /// Mastodon 4's `FilterResult`: the person's filter that matched, and what it says to do.
    struct FilterResult: Decodable {
        var filter: Filter?
        struct Filter: Decodable {
            var title: String?
            var action: String?
            /// Where the filter applies (nil: not said, so everywhere).
            var contexts: [String]?
            enum CodingKeys: String, CodingKey { case title, action = "filter_action", contexts = "context" }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                title = try? c.decodeIfPresent(String.self, forKey: .title)
                action = try? c.decodeIfPresent(String.self, forKey: .action)
                contexts = try? c.decodeIfPresent([String].self, forKey: .contexts)
            }

            /// Whether the filter applies where the page is read (nil: not known, so it does).
            func applies(in context: FilterContext?) -> Bool {
                guard let context, let contexts else { return true }
                return contexts.contains(context.rawValue)
            }
        }
        enum CodingKeys: String, CodingKey { case filter }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            filter = try? c.decodeIfPresent(Filter.self, forKey: .filter)
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
        case id, content, url, sensitive, spoilerText = "spoiler_text", filtered
        case account, favouritesCount = "favourites_count", favourited, mediaAttachments = "media_attachments", reblog
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = (try? c.decodeIfPresent(FlexibleString.self, forKey: .id))?.text
        content = try? c.decodeIfPresent(String.self, forKey: .content)
        url = try? c.decodeIfPresent(String.self, forKey: .url)
        sensitive = try? c.decodeIfPresent(Bool.self, forKey: .sensitive)
        spoilerText = try? c.decodeIfPresent(String.self, forKey: .spoilerText)
        filtered = try? c.decodeIfPresent([Lenient<FilterResult>].self, forKey: .filtered)
        account = try? c.decodeIfPresent(Account.self, forKey: .account)
        favouritesCount = try? c.decodeIfPresent(Int.self, forKey: .favouritesCount)
        favourited = try? c.decodeIfPresent(Bool.self, forKey: .favourited)
        mediaAttachments = try? c.decodeIfPresent([Lenient<Attachment>].self, forKey: .mediaAttachments)
        reblog = try? c.decodeIfPresent(Box.self, forKey: .reblog)
    }
}

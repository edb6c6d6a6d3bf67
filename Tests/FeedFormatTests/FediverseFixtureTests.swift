@testable import FeedFormat
import Foundation
import Testing

/// Real shapes (issue 45): Mastodon, Pleroma, Akkoma, GoToSocial and Pixelfed timelines as
/// those servers write them, in words of our own (Tests/Fixtures/Fediverse, its README
/// names the public source of each shape). Each page is parsed, and the careful client's
/// rules are worked out again from the raw JSON, by another road, and compared.
@Suite struct FediverseFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Fediverse")
    static let files = ["mastodon-home.json", "pleroma-public.json", "pleroma-home.json", "akkoma-home.json", "gotosocial-public.json",
                        "gotosocial-home.json", "pixelfed-public.json", "pixelfed-home.json", "pixelfed-public-native.json"]

    /// What a careful client makes of one raw status.
    struct Expected {
        var isFilteredOut = false
        var isPost = false
        var id = ""
        var warned = false
        var pictures = 0
        var boostedBy: String?
    }

    /// Where a fixture's timeline is read: its name says (`mastodon-home.json` is a home timeline).
    static func context(of file: String) -> FilterContext { file.contains("-home") ? .home : .public }

    static func expected(_ status: [String: Any], in context: FilterContext) -> Expected {
        let inner = status["reblog"] as? [String: Any] ?? status
        var result = Expected()
        let filters = ((inner["filtered"] as? [[String: Any]]) ?? []) + (inner.keys.contains("reblog") ? [] : (status["filtered"] as? [[String: Any]]) ?? [])
        let applying = filters.compactMap { $0["filter"] as? [String: Any] }.filter { filter in
            (filter["context"] as? [String]).map { $0.contains(context.rawValue) } ?? true
        }
        let actions = applying.compactMap { $0["filter_action"] as? String }
        if actions.contains("hide") {
            result.isFilteredOut = true
            return result
        }
        let media = (inner["media_attachments"] as? [[String: Any]]) ?? []
        let usable = media.filter { attachment in
            guard let type = attachment["type"] as? String, type == "image" || type == "gifv" else { return false }
            let preview = (attachment["preview_url"] as? String).flatMap { $0.hasPrefix("http") ? $0 : nil }
            let url = (attachment["url"] as? String).flatMap { $0.hasPrefix("http") ? $0 : nil }
            return type == "gifv" ? preview != nil : (url ?? preview) != nil
        }
        result.pictures = min(usable.count, TimelinePage.maximumPictures)
        result.isPost = result.pictures > 0
        result.id = (inner["id"] as? String) ?? ""
        let spoiler = (inner["spoiler_text"] as? String) ?? ""
        result.warned = !spoiler.isEmpty || (inner["sensitive"] as? Bool ?? false) || !actions.isEmpty
        if status["reblog"] is [String: Any] {
            let account = status["account"] as? [String: Any] ?? [:]
            let display = (account["display_name"] as? String) ?? ""
            result.boostedBy = display.isEmpty ? account["acct"] as? String : display
        }
        return result
    }

    @Test(arguments: files)
    func everyStatusIsShownAsACarefulClientShowsIt(file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let page = try TimelinePage.parse(Array(data), link: nil, context: Self.context(of: file))
        let expected = raw.map { Self.expected($0, in: Self.context(of: file)) }
        #expect(page.filteredOut == expected.count(where: \.isFilteredOut), "\(file): filtered out")
        let posts = expected.filter(\.isPost)
        #expect(page.skipped == expected.count(where: { !$0.isPost && !$0.isFilteredOut }), "\(file): skipped")
        #expect(page.posts.map(\.statusID) == posts.map(\.id), "\(file): the posts, by the shown status's id")
        for (post, want) in zip(page.posts, posts) {
            #expect((post.warning != nil) == want.warned, "\(file) \(post.statusID): hidden until asked")
            #expect(post.pictures.count == want.pictures, "\(file) \(post.statusID): pictures")
            #expect(post.boostedBy == want.boostedBy.map { PlainText.clean($0) }, "\(file) \(post.statusID): booster")
            // Nothing a terminal would act on, in anything shown.
            for text in [post.title, post.region, post.warning ?? "", post.boostedBy ?? ""] + post.pictures.map({ $0.altText ?? "" }) {
                #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }, "\(file) \(post.statusID)")
            }
        }
    }

    /// The targets on the shapes found: every warned status hidden, every GIF a post, no
    /// status without a picture shown, and each server's shapes present at least once.
    @Test func theFixturesHoldEveryShapeTheIssueNames() throws {
        var warned = 0, gifs = 0, galleries = 0, boosts = 0, filtered = 0, webp = 0
        for file in Self.files {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
            let page = try TimelinePage.parse(Array(data), link: nil)
            warned += page.posts.count(where: { $0.warning != nil })
            gifs += page.posts.count(where: { $0.pictures.contains(where: \.isAnimated) })
            galleries += page.posts.count(where: { $0.pictures.count >= 4 })
            boosts += page.posts.count(where: { $0.boostedBy != nil })
            filtered += page.filteredOut
            webp += page.posts.count(where: { $0.pictures.contains { $0.previewURL.hasSuffix(".webp") } })
        }
        #expect(warned >= 10 && gifs >= 2 && galleries >= 6 && boosts >= 6 && filtered >= 1 && webp >= 2,
                "warned \(warned), gifs \(gifs), galleries \(galleries), boosts \(boosts), filtered \(filtered), webp \(webp)")
    }
}

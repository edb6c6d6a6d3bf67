@testable import FeedFormat
import Testing

@Suite struct TimelinePageTests {
    static func status(_ id: String, attachments: String, content: String = "<p>Hello</p>", extra: String = "") -> String {
        #"{"id": "\#(id)", "content": "\#(content)", "favourites_count": 12, "favourited": false, "account": {"display_name": "Ana", "acct": "ana@m.example"}, "media_attachments": [\#(attachments)]\#(extra)}"#
    }

    static let image = #"{"type": "image", "url": "https://m.example/o.jpg", "preview_url": "https://m.example/p.jpg", "description": "Lake at dawn", "blurhash": "LEHV6nWB2yk8pyo0adR*.7kCMdnj", "meta": {"original": {"width": 1600, "height": 1200}}}"#

    func parse(_ json: String, link: String? = nil) throws -> TimelinePage {
        try TimelinePage.parse(Array(json.utf8), link: link)
    }

    @Test func aStatusWithAnImageBecomesAPost() throws {
        let page = try parse("[\(Self.status("101", attachments: Self.image))]", link: #"<https://m.example/api/v1/timelines/public?max_id=101>; rel="next""#)
        #expect(page.posts == [FeedPost(statusID: "101", title: "Hello", region: "Ana", likes: 12, favourited: false,
                                        pictures: [FeedPicture(previewURL: "https://m.example/p.jpg", url: "https://m.example/o.jpg", altText: "Lake at dawn",
                                                               width: 1600, height: 1200, blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj")])])
        #expect(page.skipped == 0)
        #expect(page.next == "https://m.example/api/v1/timelines/public?max_id=101")
    }

    /// The person's words are the title; without any, the alt text; without that, "Untitled".
    @Test func theContentIsTheTitleElseTheAltText() throws {
        let bare = #"{"type": "image", "url": "https://m.example/o.jpg", "description": null}"#
        let page = try parse("[\(Self.status("7", attachments: bare, content: "<p>Dolomites &amp; more</p>"))]")
        #expect(page.posts.first?.title == "Dolomites & more")
        #expect(page.posts.first?.pictures.first?.altText == nil)
        #expect(try parse("[\(Self.status("8", attachments: Self.image, content: ""))]").posts.first?.title == "Lake at dawn")
        #expect(try parse("[\(Self.status("9", attachments: bare, content: "<p></p>"))]").posts.first?.title == "Untitled")
        #expect(page.posts.first?.thumbnailURL == "https://m.example/o.jpg", "no preview_url: the photo itself")
        #expect(page.posts.first?.blurhash == nil)
    }

    @Test func statusesWithoutAnImageOrTooOddAreSkippedAndCounted() throws {
        let video = #"{"type": "video", "url": "https://m.example/v.mp4", "preview_url": "https://m.example/v.jpg"}"#
        let badScheme = #"{"type": "image", "url": "file:///etc/passwd"}"#
        let json = "[" + [
            Self.status("1", attachments: ""),  // text only
            Self.status("2", attachments: video),
            Self.status("3", attachments: badScheme),
            #"{"content": "no id", "media_attachments": [\#(Self.image)]}"#,
            #""a string, not a status""#,
            "42",
            Self.status("4", attachments: "17, " + Self.image),  // an odd attachment before a good one
            #"{"id": 5, "favourites_count": "many", "media_attachments": [\#(Self.image)], "account": {"display_name": 3, "acct": "x"}}"#,
        ].joined(separator: ",") + "]"
        let page = try parse(json)
        #expect(page.posts.map(\.statusID) == ["4", "5"])
        #expect(page.skipped == 6)
        #expect(page.posts[1].likes == 0)
        #expect(page.posts[1].region == "x")
    }

    @Test func aBoostShowsTheBoostedStatus() throws {
        let inner = Self.status("900", attachments: Self.image).replacingOccurrences(of: #""Ana""#, with: #""Bo""#)
        let page = try parse(#"[{"id": "901", "content": "", "account": {"display_name": "Booster"}, "media_attachments": [], "reblog": \#(inner)}]"#)
        #expect(page.posts.map(\.statusID) == ["900"], "likes go to the boosted status: un-favouriting a boost's id finds nothing")
        #expect(page.posts.first?.region == "Bo")
        #expect(page.posts.first?.boostedBy == "Booster")
    }

    @Test func hostileTextArrivesHarmless() throws {
        let hostile = Self.status("1", attachments: Self.image, content: #"\u001b]0;owned\u0007\u001b[2J"#)
            .replacingOccurrences(of: #""Ana""#, with: #""\u001b[31mRed\u009b""#)
        let post = try #require(try parse("[\(hostile)]").posts.first)
        #expect(post.title == "]0;owned[2J")
        #expect(post.region == "[31mRed")
        let long = String(repeating: "é", count: 5000)
        let tooLong = try parse("[\(Self.status("2", attachments: Self.image, content: long))]")
        #expect(tooLong.posts.first?.title.count == TimelinePage.maximumTitleLength)
    }

    @Test func bodiesThatAreNotATimelineSayWhat() {
        #expect(throws: FeedError.html) { try parse("  <!DOCTYPE html><html><body>Login</body></html>") }
        #expect(throws: FeedError.notATimeline("Too many requests")) { try parse(#"{"error": "Too many requests"}"#) }
        #expect(throws: FeedError.notATimeline(nil)) { try parse(#"{"statuses": []}"#) }
        #expect(throws: FeedError.self) { try parse("[" + Self.status("1", attachments: Self.image).dropLast(10)) }
        #expect(throws: FeedError.self) { try parse("") }
        #expect(throws: FeedError.self) { try parse("\u{0}\u{FF}") }
        #expect((try? parse("[]"))?.posts.isEmpty == true)
    }
}

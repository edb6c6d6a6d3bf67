@testable import FeedFormat
import Testing

/// What a careful Mastodon client does with a status before it is drawn: warnings hide,
/// filters hide or warn, every picture counts, a boost is the boosted status.
@Suite struct CarefulClientTests {
    typealias Shape = TimelinePageTests

    func post(_ json: String) throws -> FeedPost? { try TimelinePage.parse(Array("[\(json)]".utf8), link: nil).posts.first }

    static func attachment(_ type: String, _ n: Int, alt: String? = nil) -> String {
        let description = alt.map { "\"\($0)\"" } ?? "null"
        return #"{"id": "\#(n)", "type": "\#(type)", "url": "https://m.example/\#(n).\#(type == "image" ? "jpg" : "mp4")", "preview_url": "https://m.example/\#(n)-small.jpg", "description": \#(description)}"#
    }

    @Test func aContentWarningHidesThePostAndSaysWhy() throws {
        let warned = try #require(try post(Shape.status("1", attachments: Shape.image, extra: #", "sensitive": true, "spoiler_text": "Heights \u001b[31m""#)))
        #expect(warned.warning == "Heights [31m", "cleaned like every server text")
        #expect(warned.title == "Hello", "the words are kept for when the person asks")
        let sensitive = try #require(try post(Shape.status("2", attachments: Shape.image, extra: #", "sensitive": true, "spoiler_text": """#)))
        #expect(sensitive.warning == "sensitive", "sensitive without a warning hides too (toot #529)")
        let warnedOnly = try #require(try post(Shape.status("3", attachments: Shape.image, extra: #", "sensitive": false, "spoiler_text": "Spoilers""#)))
        #expect(warnedOnly.warning == "Spoilers", "a warning hides even when the media is not marked")
        let plain = try #require(try post(Shape.status("4", attachments: Shape.image, extra: #", "sensitive": false, "spoiler_text": """#)))
        #expect(plain.warning == nil)
    }

    @Test func filtersHideOrWarnAsThePersonSet() throws {
        let filter = { (action: String) in #", "filtered": [{"filter": {"id": "9", "title": "Heights", "context": ["public"], "filter_action": "\#(action)"}, "keyword_matches": ["cliff"], "status_matches": null}]"# }
        let json = "[" + [Shape.status("1", attachments: Shape.image, extra: filter("hide")),
                          Shape.status("2", attachments: Shape.image, extra: filter("warn")),
                          Shape.status("3", attachments: Shape.image)].joined(separator: ",") + "]"
        let page = try TimelinePage.parse(Array(json.utf8), link: nil)
        #expect(page.posts.map(\.statusID) == ["2", "3"])
        #expect(page.filteredOut == 1 && page.skipped == 0, "a hidden status is counted as filtered, not as without a photo")
        #expect(page.posts[0].warning == "filtered: Heights")
        // A boost of a filtered status: the filter result is on the boosted one.
        let boost = #"{"id": "50", "content": "", "account": {"acct": "bo"}, "media_attachments": [], "reblog": \#(Shape.status("5", attachments: Shape.image, extra: filter("hide")))}"#
        #expect(try TimelinePage.parse(Array("[\(boost)]".utf8), link: nil).filteredOut == 1)
    }

    /// A filter applies only where the person said (Mastodon sends every match, whatever the
    /// timeline): one for the home timeline hides nothing in a public one, and the timeline's
    /// URL says which it is.
    @Test func aFilterAppliesOnlyInItsContexts() throws {
        let homeOnly = { (action: String) in #", "filtered": [{"filter": {"title": "Fog", "context": ["home"], "filter_action": "\#(action)"}}]"# }
        let json = Array(("[" + Shape.status("1", attachments: Shape.image, extra: homeOnly("hide")) + ","
                          + Shape.status("2", attachments: Shape.image, extra: homeOnly("warn")) + "]").utf8)
        let home = try TimelinePage.parse(json, link: nil, context: .home)
        #expect(home.filteredOut == 1 && home.posts.map(\.warning) == ["filtered: Fog"])
        let tag = try TimelinePage.parse(json, link: nil, context: .public)
        #expect(tag.filteredOut == 0 && tag.posts.map(\.warning) == [nil, nil])
        #expect(try TimelinePage.parse(json, link: nil).filteredOut == 1, "no context known: every filter applies")
        #expect(FilterContext(timelineURL: "https://m.example/api/v1/timelines/home?limit=40") == .home)
        #expect(FilterContext(timelineURL: "https://m.example/api/v1/timelines/list/7") == .home)
        #expect(FilterContext(timelineURL: "https://m.example/api/v1/accounts/9/statuses?only_media=true") == .account)
        #expect(FilterContext(timelineURL: "https://m.example/api/v1/timelines/tag/cats") == .public)
        let dialect = try #require(FeedDialects.forFeed("https://m.example/api/v1/timelines/home") as? MastodonDialect)
        #expect(dialect.filterContext == .home)
    }

    @Test func imagesAndGIFsArePicturesVideoAndAudioAreNot() throws {
        let gallery = try #require(try post(Shape.status("1", attachments: [
            Self.attachment("image", 1, alt: "A hut"), Self.attachment("video", 2), Self.attachment("gifv", 3),
            Self.attachment("audio", 4), Self.attachment("unknown", 5), Self.attachment("image", 6),
        ].joined(separator: ","))))
        #expect(gallery.pictures.count == 3)
        #expect(gallery.pictures.map(\.altText) == ["A hut", nil, nil])
        #expect(gallery.pictures[1].isAnimated)
        #expect(gallery.pictures[1].url == "https://m.example/3-small.jpg", "a gifv's url is a video: its still opens large")
        #expect(gallery.thumbnailURL == "https://m.example/1-small.jpg")
        let json = "[" + [Shape.status("7", attachments: Self.attachment("video", 7)), Shape.status("8", attachments: Self.attachment("audio", 8)),
                          Shape.status("9", attachments: Self.attachment("gifv", 9))].joined(separator: ",") + "]"
        let page = try TimelinePage.parse(Array(json.utf8), link: nil)
        #expect(page.posts.map(\.statusID) == ["9"], "a GIF is a post")
        #expect(page.skipped == 2)
    }

    @Test func aStatusKeepsAtMostSixteenPictures() throws {
        let many = (0..<40).map { Self.attachment("image", $0) }.joined(separator: ",")
        #expect(try post(Shape.status("1", attachments: many))?.pictures.count == TimelinePage.maximumPictures)
    }

    @Test func aBoostIsTheBoostedStatusWithItsBooster() throws {
        let inner = Shape.status("900", attachments: Shape.image, extra: #", "spoiler_text": "Vertigo", "url": "https://m.example/@ana/900""#)
        let boost = try #require(try post(#"{"id": "901", "content": "", "spoiler_text": "", "account": {"display_name": "", "acct": "cho@else.example"}, "media_attachments": [], "reblog": \#(inner)}"#))
        #expect(boost.statusID == "900")
        #expect(boost.boostedBy == "cho@else.example", "the acct when the name is empty")
        #expect(boost.warning == "Vertigo", "the boosted status's warning")
        #expect(boost.url == "https://m.example/@ana/900")
    }

    @Test func mastodonsHiddenLinkPartsAreDroppedAndItsEllipsisKept() {
        let html = #"<p>Route notes <a href="https://example.org/a/very/long/path" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.org/a/very/lo</span><span class="invisible">ng/path</span></a> and <a href="https://example.net/x"><span class="invisible">https://</span><span class="">example.net/x</span><span class="invisible"></span></a> :hut:</p>"#
        #expect(PlainText.fromHTML(html) == "Route notes example.org/a/very/lo… and example.net/x :hut:")
        #expect(PlainText.fromHTML(#"<span class='invisible'><span>nested</span> gone</span>kept"#) == "kept")
    }
}

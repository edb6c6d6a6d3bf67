import FeedFormat
import Foundation
import Testing

/// Mastodon's dialect on bytes alone: where pages are, how a page reads, how a like is sent
/// and answered — what the pager and the outbox ask of it.
@Suite struct FeedDialectTests {
    let mastodon = MastodonDialect()

    @Test func everyFeedSpeaksMastodonUntilAnotherDialectIsKnown() {
        #expect(FeedDialects.forFeed("https://mastodon.social/api/v1/timelines/public").name == "Mastodon")
        #expect(FeedDialects.forFeed("http://127.0.0.1:8080/anything").name == "Mastodon")
    }

    @Test func theFirstPageAsksForFortyUnlessTheFeedNamesALimit() {
        #expect(mastodon.firstPage(of: "https://h.example/api/v1/timelines/public") == "https://h.example/api/v1/timelines/public?limit=40")
        #expect(mastodon.firstPage(of: "https://h.example/api/v1/timelines/tag/cats?only_media=true")
                == "https://h.example/api/v1/timelines/tag/cats?only_media=true&limit=40")
        #expect(mastodon.firstPage(of: "https://h.example/api/v1/timelines/public?limit=20") == "https://h.example/api/v1/timelines/public?limit=20")
        #expect(mastodon.pageHeaders.contains { $0.0 == "Accept" && $0.1 == "application/json" })
    }

    @Test func aPageReadsItsStatusesAndItsNextLink() throws {
        let body = Array(#"[{"id":"7","content":"<p>Hi</p>","account":{"display_name":"A"},"media_attachments":[{"type":"image","url":"https://h.example/o.jpg","preview_url":"https://h.example/p.jpg"}]}]"#.utf8)
        let page = try mastodon.parsePage(body, link: #"<https://h.example/api/v1/timelines/public?max_id=7>; rel="next""#)
        #expect(page.posts.count == 1 && page.posts.first?.statusID == "7")
        #expect(page.next == "https://h.example/api/v1/timelines/public?max_id=7")
        #expect(throws: FeedError.self) { try mastodon.parsePage(Array("<html>".utf8), link: nil) }
    }

    @Test func aLikeIsAPostToTheStatusAndItsAnswerIsTheStatus() {
        let feed = "https://h.example/prefix/api/v1/timelines/public?limit=40"
        #expect(mastodon.likeRequest(statusID: "109", liked: true, feedURL: feed)
                == LikeRequest(url: "https://h.example/prefix/api/v1/statuses/109/favourite", method: "POST"))
        #expect(mastodon.likeRequest(statusID: "109", liked: false, feedURL: feed)?.url == "https://h.example/prefix/api/v1/statuses/109/unfavourite")
        // An id is a path segment: anything but letters and digits is escaped.
        #expect(mastodon.likeRequest(statusID: "../x", liked: true, feedURL: feed)?.url == "https://h.example/prefix/api/v1/statuses/%2E%2E%2Fx/favourite")
        #expect(mastodon.likeAnswer(Array(#"{"id":"109","favourited":true}"#.utf8)) == true)
        #expect(mastodon.likeAnswer(Array(#"{"id":"109","favourited":false}"#.utf8)) == false)
        #expect(mastodon.likeAnswer(Array("OK".utf8)) == nil)
    }
}

import FeedFormat
import Testing

/// What a person types after `--feed` (issue 45): the timelines people browse, by name.
@Suite struct FeedAddressTests {
    func url(_ text: String) throws -> String? {
        if case .timeline(let url) = try FeedAddress.parse(text) { return url }
        return nil
    }

    @Test func namesBecomeTimelines() throws {
        #expect(try url("mastodon.social") == "https://mastodon.social/api/v1/timelines/public?only_media=true")
        #expect(try url("Mastodon.Social") == "https://mastodon.social/api/v1/timelines/public?only_media=true")
        #expect(try url("#photography@pixelfed.social") == "https://pixelfed.social/api/v1/timelines/tag/photography?only_media=true")
        #expect(try url("#写真@mstdn.jp") == "https://mstdn.jp/api/v1/timelines/tag/%E5%86%99%E7%9C%9F?only_media=true", "a tag in any script, encoded")
        #expect(try url("home@example.social") == "https://example.social/api/v1/timelines/home")
        #expect(try url("local@example.social") == "https://example.social/api/v1/timelines/public?local=true&only_media=true")
        #expect(try url("https://example.social") == "https://example.social/api/v1/timelines/public?only_media=true", "a server's address")
        #expect(try url("https://example.social/api/v1/timelines/list/42") == "https://example.social/api/v1/timelines/list/42", "a full URL as it is")
        #expect(try url("127.0.0.1:8080") == "http://127.0.0.1:8080/api/v1/timelines/public?only_media=true", "plain http on this machine only")
    }

    @Test func anAccountIsLookedUpThenItsPicturesPaged() throws {
        let address = try FeedAddress.parse("@ana@example.social")
        #expect(address == .account(user: "ana", server: "example.social"))
        #expect(address.accountLookupURL == "https://example.social/api/v1/accounts/lookup?acct=ana")
        #expect(address.accountStatusesURL(id: "109876") == "https://example.social/api/v1/accounts/109876/statuses?only_media=true&exclude_replies=true")
        #expect(FeedAddress.accountID(in: Array(#"{"id": "109876", "acct": "ana"}"#.utf8)) == "109876")
        #expect(try FeedAddress.parse("@花子@example.social").accountLookupURL == "https://example.social/api/v1/accounts/lookup?acct=%E8%8A%B1%E5%AD%90", "any script, encoded")
        #expect(FeedAddress.accountID(in: Array(#"{"id": 42}"#.utf8)) == "42", "a number on some servers")
        #expect(FeedAddress.accountID(in: Array(#"{"error": "Record not found"}"#.utf8)) == nil)
    }

    @Test(arguments: ["", "@ana", "@ana@", "#@x.org", "ftp://example.org/x", "bad feed", "@a b@example.org", "favourites@example.org", "example.", "@ana@exa\u{1B}mple.org"])
    func whatNamesNoTimelineSaysWhatDoes(text: String) {
        #expect(throws: FeedAddress.Refusal.self) { try FeedAddress.parse(text) }
    }
}

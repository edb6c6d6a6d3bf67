import FeedClient
import FeedFormat
import Foundation
import SavedState
import Testing

/// `destinations login` against destinations-feed (issue 45): an app registered, a code
/// from the authorization page, a token that opens the home timeline, kept where only its
/// owner reads it, and revoked at logout.
@Suite struct LoginTests {
    @Test func aLoginOpensTheHomeTimelineAndALogoutClosesIt() async throws {
        let feed = try await LoopbackFeed.start()
        let fetcher = try HTTPFetcher()
        let login = OAuthLogin(server: feed.base, fetcher: fetcher)
        let home = feed.base + "/api/v1/timelines/home"
        await #expect(throws: FetchError.self, "no token, no home") { _ = try await fetcher.fetch(home, limit: 1 << 20, deadline: .seconds(20)) }
        let app = try await login.registerApp()
        let page = try await fetcher.fetch(OAuthAnswers.authorizeURL(server: feed.base, clientID: app.clientID), limit: 1 << 16, deadline: .seconds(20))
        let text = String(decoding: page.bytes, as: UTF8.self)
        let code = try #require(text.range(of: #"(?<=oauth-code">)\w+"#, options: .regularExpression).map { String(text[$0]) })
        await #expect(throws: FetchError.self, "a wrong code") { _ = try await login.token(code: "nope", clientID: app.clientID, clientSecret: app.clientSecret) }
        let token = try await login.token(code: code, clientID: app.clientID, clientSecret: app.clientSecret)
        await #expect(throws: FetchError.self, "a code is used once") { _ = try await login.token(code: code, clientID: app.clientID, clientSecret: app.clientSecret) }
        #expect(try await login.account(token: token) == "you")
        let authorized = try HTTPFetcher(credential: try Credential(token: token, for: home))
        let page1 = try await authorized.fetch(home, limit: 8 << 20, deadline: .seconds(20), authorized: true)
        #expect(try TimelinePage.parse(page1.bytes, link: nil).posts.count == 40)
        // Kept for this server only, and only its owner may read it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = AccountStore(folder: folder)
        let account = AccountStore.Account(server: feed.base, acct: "you", clientID: app.clientID, clientSecret: app.clientSecret, token: token)
        try store.save(account)
        #expect(try store.account(forServer: feed.base) == account)
        #expect(try store.account(forServer: "https://elsewhere.example") == nil)
        let secure = AccountStore.Account(server: "https://h.example", acct: "you", clientID: "c", clientSecret: "s", token: "t")
        try store.save(secure)
        #expect(try store.account(forServer: "http://h.example") == nil, "a token kept for https is never handed to http")
        #expect(try store.account(forServer: "https://h.example") == secure)
        let mode = try FileManager.default.attributesOfItem(atPath: store.path(forServer: feed.base))[.posixPermissions] as? NSNumber
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600 && folderMode?.intValue == 0o700)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.path(forServer: feed.base))
        #expect(throws: AccountStore.Failure.self, "a token file others could read is refused") { try store.account(forServer: feed.base) }
        // Logout: revoked at the server, forgotten here.
        try await login.revoke(token: token, clientID: app.clientID, clientSecret: app.clientSecret)
        await #expect(throws: FetchError.self, "a revoked token opens nothing") {
            _ = try await authorized.fetch(home, limit: 8 << 20, deadline: .seconds(20), authorized: true)
        }
        #expect(store.remove(server: feed.base) && !store.remove(server: feed.base))
        authorized.shutdown()
        fetcher.shutdown()
        await feed.stop()
    }
}

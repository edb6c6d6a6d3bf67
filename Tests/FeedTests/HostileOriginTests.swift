import CoreKit
import FeedClient
import FeedFormat
import Foundation
import HTTPCache
import SavedState
import TestSupport
import Testing

/// Servers as adversaries (issue 43), each a ``HostileServer`` on its own loopback address
/// (127.0.0.1, .2, .3: three origins): the token stays with the origin it was given for,
/// a write is never replayed where a server points, a like counts only when the answer
/// says so, paging ends where a server would loop it, and no credential reaches the disk.
@Suite(.serialized) struct HostileOriginTests {
    static let token = "s3cret-token-of-the-person"
    static let emptyTimeline = HostileServer.Response.json("[]")

    /// Authorization values each server received, in order (nil: none sent).
    func authorizations(_ server: HostileServer) -> [String?] { server.requests.map { $0.header("Authorization") } }

    @Test func theTokenNeverFollowsARedirectToAnotherOrigin() async throws {
        let elsewhere = try HostileServer(host: "127.0.0.2") { _ in Self.emptyTimeline }
        defer { elsewhere.stop() }
        let origin = try HostileServer(host: "127.0.0.1") { request in
            switch request.target {
            case "/away": .redirect(302, to: "\(elsewhere.base)/stolen")
            case "/around": .redirect(301, to: "/here")  // the same origin: the token goes on
            default: Self.emptyTimeline
            }
        }
        defer { origin.stop() }
        let fetcher = try HTTPFetcher(credential: try Credential(token: Self.token, for: origin.base + "/api/v1/timelines/home"))
        defer { fetcher.shutdown() }
        _ = try await fetcher.fetch(origin.base + "/away", limit: 1 << 20, deadline: .seconds(20), authorized: true)
        _ = try await fetcher.fetch(origin.base + "/around", limit: 1 << 20, deadline: .seconds(20), authorized: true)
        #expect(authorizations(origin) == ["Bearer \(Self.token)", "Bearer \(Self.token)", "Bearer \(Self.token)"])
        #expect(elsewhere.requests.map(\.target) == ["/stolen"], "the redirect itself is followed")
        #expect(authorizations(elsewhere) == [nil], "but without the token")
    }

    @Test func theTokenNeverGoesToALinkOnAnotherOriginAndPagingEndsAtAPageAlreadySeen() async throws {
        let third = try HostileServer(host: "127.0.0.3") { request in
            // Points back at itself: a loop the pager must end.
            .json("[]", headers: [("Link", "<\(request.target)>; rel=\"next\"")])
        }
        defer { third.stop() }
        let origin = try HostileServer(host: "127.0.0.1") { request in
            request.target.hasPrefix("/api/v1/timelines/public")
                ? .json("[]", headers: [("Link", "</second?max_id=7>; rel=\"next\"")])  // relative (RFC 8288)
                : .json("[]", headers: [("Link", "<\(third.base)/third>; rel=\"next\"")])
        }
        defer { origin.stop() }
        let feed = origin.base + "/api/v1/timelines/public"
        let fetcher = try HTTPFetcher(credential: try Credential(token: Self.token, for: feed))
        defer { fetcher.shutdown() }
        let pager = FeedPager(url: feed, fetcher: fetcher, wake: nil)
        _ = try await onOwnThread { Result { () throws(FetchError) in try pager.loadFirstPage() } }.get()
        for _ in 0..<3 {
            guard pager.loadMore() else { break }
            while pager.isLoading { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(origin.requests.map(\.target) == ["/api/v1/timelines/public?limit=40", "/second?max_id=7"], "the relative link resolved")
        #expect(authorizations(origin) == ["Bearer \(Self.token)", "Bearer \(Self.token)"])
        #expect(third.requests.map(\.target) == ["/third"], "the page linking to itself is asked for once")
        #expect(authorizations(third) == [nil])
        #expect(pager.hasEnded)
    }

    /// A token is for one origin: its scheme, host and port; plain http only on loopback or
    /// when the person says so.
    @Test func aCredentialIsForOneOrigin() throws {
        let credential = try Credential(token: Self.token, for: "https://social.example/api/v1/timelines/home")
        #expect(credential.authorization(for: "https://social.example/api/v1/statuses/1/favourite") == "Bearer \(Self.token)")
        #expect(credential.authorization(for: "https://SOCIAL.example:443/x") == "Bearer \(Self.token)")
        for elsewhere in ["http://social.example/api", "https://social.example:8443/api", "https://media.social.example/x",
                          "https://social.example.evil/x", "https://evil@social.example.evil/", "ftp://social.example/"] {
            #expect(credential.authorization(for: elsewhere) == nil, "\(elsewhere)")
        }
        #expect(throws: Credential.Refusal.self) { try Credential(token: Self.token, for: "http://social.example/api/v1/timelines/home") }
        #expect(throws: Credential.Refusal.self) { try Credential(token: Self.token, for: "file:///etc/passwd") }
        #expect(try Credential(token: Self.token, for: "http://social.example/", allowCleartext: true).origin.scheme == "http")
        for loopback in ["http://127.0.0.1:8080/", "http://localhost/", "http://127.3.2.1/", "http://[::1]:9/"] {
            #expect(try Credential(token: Self.token, for: loopback).origin.isLoopback, "\(loopback)")
        }
        #expect(throws: Credential.Refusal.self) { try Credential(token: Self.token, for: "http://127.0.0.1.evil.example/") }
    }

    /// `Retry-After` on a 429 or 503 is honoured, in seconds or as an HTTP-date, capped at an
    /// hour; a 4xx that is not worth repeating is not repeated.
    @Test func retryAfterIsHonouredAndRefusalsAreNotRepeated() async throws {
        #expect(FetchError.retryAfter("120", now: 0) == .seconds(120))
        #expect(FetchError.retryAfter(" 0 ", now: 0) == .zero)
        #expect(FetchError.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 - 30) == .seconds(30))
        #expect(FetchError.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 + 30) == .zero, "a date past is now")
        #expect(FetchError.retryAfter("99999999999999999999", now: 0) == FetchError.longestRetryAfter)
        #expect(FetchError.retryAfter("soon", now: 0) == nil && FetchError.retryAfter("-5", now: 0) == nil && FetchError.retryAfter("1.5", now: 0) == nil)

        let answers = Lock<[HostileServer.Response]>([
            .json("[]", status: 429, headers: [("Retry-After", "120")]),
            .json("{\"error\":\"Not found\"}", status: 404),
        ])
        let server = try HostileServer(host: "127.0.0.1") { request in
            guard request.target.contains("max_id") else { return .json("[]", headers: [("Link", "<?max_id=1>; rel=\"next\"")]) }
            return answers.withLock { $0.isEmpty ? Self.emptyTimeline : $0.removeFirst() }
        }
        defer { server.stop() }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let pager = FeedPager(url: server.base + "/api/v1/timelines/public", fetcher: fetcher, wake: nil)
        _ = try await onOwnThread { Result { () throws(FetchError) in try pager.loadFirstPage() } }.get()
        #expect(pager.loadMore())
        var events: [FeedPagerEvent] = []
        while events.isEmpty {
            try await Task.sleep(for: .milliseconds(5))
            events += pager.events.drainIfAvailable() ?? []
        }
        guard case .failed(let error, let retryIn) = events.first else { Issue.record("\(events)"); return }
        #expect(error.retryAfter == .seconds(120) && retryIn == .seconds(120), "\(error) \(String(describing: retryIn))")
        pager.stop()
        // Until then the origin is asked nothing, by anyone: a photo fails at once, unsent.
        let asked = server.requests.count
        var photoError: FetchError?
        do { _ = try await fetcher.fetch(server.base + "/media/1.png", limit: 1 << 20, deadline: .seconds(5)) } catch { photoError = error }
        #expect(photoError?.retryAfter.map { $0 > .seconds(100) } == true, "\(String(describing: photoError))")
        #expect(server.requests.count == asked, "nothing sent to an origin that asked to wait")
        let fresh = try HTTPFetcher()  // a client that was not asked to wait
        defer { fresh.shutdown() }
        // A 404 is not asked again by itself: one request, then the pager waits for the person.
        let second = FeedPager(url: server.base + "/api/v1/timelines/public", fetcher: fresh, wake: nil)
        answers.withLock { $0 = [.json("{\"error\":\"Not found\"}", status: 404)] }
        _ = try await onOwnThread { Result { () throws(FetchError) in try second.loadFirstPage() } }.get()
        let before = server.requests.count
        #expect(second.loadMore())
        var refusals: [FeedPagerEvent] = []
        while refusals.isEmpty {  // the event, not `isLoading`: it is posted just after
            try await Task.sleep(for: .milliseconds(5))
            refusals += second.events.drainIfAvailable() ?? []
        }
        #expect(server.requests.count == before + 1)
        #expect(refusals.contains { if case .failed(.status(404, _), nil) = $0 { true } else { false } })
        // The frame loop asks on every frame while the grid is near its end: nothing goes
        // out until the person asks (issue 43: 60 requests a second to a server that said no).
        for _ in 0..<100 { #expect(!second.loadMore()) }
        #expect(second.isHeld && server.requests.count == before + 1)
        second.askAgain()
        #expect(second.loadMore(), "the person's G asks once more")
        while second.isLoading { try await Task.sleep(for: .milliseconds(5)) }
        #expect(server.requests.count == before + 2)
    }

    /// The backstop under every policy: whatever the callers do, the fetcher makes at most
    /// `burst` requests to an origin at once and `perSecond` after. On a clock held still,
    /// 35 requests at once are 5 now and 30 that wait their turn, 0.1 s apart.
    @Test func requestsToAnOriginAreBoundedWhateverTheCallersDo() async throws {
        let server = try HostileServer(host: "127.0.0.1") { _ in HostileServer.Response(status: 500, text: "no") }
        defer { server.stop() }
        let fetcher = try HTTPFetcher(bound: RequestBound(perSecond: 10, burst: 5, clock: { .zero }))
        defer { fetcher.shutdown() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<35 {
                group.addTask { _ = try? await fetcher.fetch(server.base + "/\(index)", limit: 1 << 10, deadline: .seconds(30)) }
            }
        }
        #expect(server.requests.count == 35)
        #expect(fetcher.requestsHeldByBound == 30)
        var bucket = TokenBucket(rate: 10, capacity: 5, now: .zero)
        let waits = (0..<35).map { _ in bucket.reserve(at: .zero) }
        #expect(waits.filter { $0 == .zero }.count == 5 && waits.last == .seconds(3))
        // Over any span, at most capacity + rate × span: reserved at 0, 1 and 2 s.
        var spread = TokenBucket(rate: 10, capacity: 5, now: .zero)
        let admitted = (0..<3).flatMap { second in (0..<20).map { _ in Duration.seconds(second) + spread.reserve(at: .seconds(second)) } }
        for start in 0..<30 {
            let from = Duration.milliseconds(start * 100)
            #expect(admitted.filter { $0 >= from && $0 < from + .seconds(1) }.count <= 5 + 10 + 1)
        }
    }

    /// A first page that never comes ends in a message within its bound (a server that
    /// trickles a byte a second once kept the terminal blank for 92 s), and the person's
    /// `q` ends the wait at once.
    @Test func theStartWaitsForTheFirstPageWithinABoundAndThePersonMayEndIt() async throws {
        let server = try HostileServer(host: "127.0.0.1") { _ in
            HostileServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: Array(repeating: UInt8(ascii: " "), count: 64) + Array("[]".utf8),
                                   trickle: (chunk: 1, pause: .milliseconds(200)))
        }
        defer { server.stop() }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let slow = FeedPager(url: server.base + "/api/v1/timelines/public", fetcher: fetcher, wake: nil)
        let timedOut = await onOwnThread { Result { () throws(FetchError) in try slow.loadFirstPage(bound: .milliseconds(600)) } }
        #expect(throws: FetchError.tooSlow(host: "127.0.0.1", bound: .milliseconds(600))) { try timedOut.get() }
        let polls = Lock(0)
        let quitting = FeedPager(url: server.base + "/api/v1/timelines/public", fetcher: fetcher, wake: nil)
        let quit = await onOwnThread {
            Result { () throws(FetchError) in
                try quitting.loadFirstPage { _ in polls.withLock { $0 += 1; return $0 < 3 } }
            }
        }
        #expect(throws: FetchError.cancelled) { try quit.get() }
        #expect(polls.withLock { $0 } == 3, "ended at the poll that said so")
        #expect(!quitting.isLoading)
    }

    @Test func aRedirectedPostIsNotFollowed() async throws {
        let elsewhere = try HostileServer(host: "127.0.0.2") { _ in .json("{\"id\":\"1\",\"favourited\":true}") }
        defer { elsewhere.stop() }
        for status in [301, 302, 303, 307, 308] {
            let origin = try HostileServer(host: "127.0.0.1") { _ in .redirect(status, to: "\(elsewhere.base)/api/v1/statuses/1/favourite") }
            defer { origin.stop() }
            let fetcher = try HTTPFetcher(credential: try Credential(token: Self.token, for: origin.base))
            defer { fetcher.shutdown() }
            await #expect(throws: FetchError.redirectedWrite(to: "\(elsewhere.base)/api/v1/statuses/1/favourite")) {
                try await fetcher.fetch(origin.base + "/api/v1/statuses/1/favourite", method: .post, headers: [("Idempotency-Key", "k")],
                                        limit: 1 << 20, deadline: .seconds(20), authorized: true)
            }
            #expect(origin.requests.count == 1)
        }
        #expect(elsewhere.requests.isEmpty, "nothing replayed elsewhere")
    }

    /// A like whose answer is a redirect, a web page, garbage or the other state is rolled
    /// back, not counted as sent; the status itself, liked, is.
    @Test func aLikeCountsOnlyWhenTheAnswerIsTheStatusLiked() async throws {
        let answers: [(HostileServer.Response, sent: Bool)] = [
            (.json("{\"id\":\"5\",\"favourited\":true}"), true),
            (.json("{\"id\":5,\"favourited\":true,\"content\":\"<p>numbers as ids</p>\"}"), true),
            (HostileServer.Response(status: 200, headers: [("Content-Type", "text/html")], text: "<html>Welcome to the hotel wifi</html>"), false),
            (.json("garbage"), false),
            (.json("{\"id\":\"5\",\"favourited\":false}"), false),
            (.json("{\"favourited\":true}"), false),
            (.redirect(308, to: "http://127.0.0.2:9/api/v1/statuses/5/favourite"), false),
        ]
        for (answer, sent) in answers {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-like-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try HostileServer(host: "127.0.0.1") { _ in answer }
            defer { server.stop() }
            let feed = server.base + "/api/v1/timelines/public"
            let store = try StateStore(folder: folder)
            let fetcher = try HTTPFetcher(credential: try Credential(token: Self.token, for: feed))
            defer { fetcher.shutdown() }
            let outbox = LikeOutbox(feedURL: feed, store: store, fetcher: fetcher, wake: nil, backoff: { _ in .milliseconds(5) })
            try store.setLiked(true, post: "5", title: "Post 5", in: feed, send: true)
            outbox.start()
            defer { outbox.stop() }
            #expect(await outbox.drain(timeout: .seconds(30)))
            #expect(outbox.sent == (sent ? 1 : 0) && outbox.rolledBack == (sent ? 0 : 1), "\(String(decoding: answer.body, as: UTF8.self)) \(answer.status)")
            #expect(server.requests.count == 1, "one request, never retried for a refusal")
            #expect(server.requests.first?.header("Authorization") == "Bearer \(Self.token)")
        }
    }

    /// `Vary: Authorization` keeps a copy per account, keyed by a digest: neither the token
    /// nor a cookie the server set reaches any file of the cache; and the folder and its
    /// index are the person's only.
    @Test func noCredentialReachesTheDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try HostileServer(host: "127.0.0.1") { _ in
            .json("[]", headers: [("Cache-Control", "private, max-age=600"), ("Vary", "Authorization, Cookie"), ("Set-Cookie", "session=cookie-of-the-person; HttpOnly")])
        }
        defer { server.stop() }
        let feed = server.base + "/api/v1/timelines/home"
        let fetcher = try HTTPFetcher(credential: try Credential(token: Self.token, for: feed), cache: try DiskCache(folder: folder, capacity: 1 << 20))
        defer { fetcher.shutdown() }
        _ = try await fetcher.fetchCached(feed, limit: 1 << 20, deadline: .seconds(20), authorized: true)
        _ = try await fetcher.fetchCached(feed, limit: 1 << 20, deadline: .seconds(20), authorized: true)
        #expect(server.requests.count == 1, "the second came from the disk: the digest keys it")
        let other = try HTTPFetcher(credential: try Credential(token: "another-account", for: feed), cache: try DiskCache(folder: folder, capacity: 1 << 20))
        defer { other.shutdown() }
        _ = try await other.fetchCached(feed, limit: 1 << 20, deadline: .seconds(20), authorized: true)
        #expect(server.requests.count == 2, "another token is another copy")
        var everything: [UInt8] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            everything += Array(FileManager.default.contents(atPath: folder + "/" + name) ?? Data())
        }
        #expect(!everything.isEmpty)
        for secret in [Self.token, "another-account", "cookie-of-the-person"] {
            #expect(everything.firstRange(of: Array(secret.utf8)) == nil, "\(secret) written to disk")
        }
        let folderMode = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber).intValue
        let indexMode = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/index.sqlite")[.posixPermissions] as? NSNumber).intValue
        #expect(folderMode == 0o700 && indexMode == 0o600)
    }

    /// What a hostile server names in an error (a host decoded from a redirect, its own
    /// message) is text, not escapes, in every description a person reads.
    @Test func aServersWordsReachTheMessageAsText() async throws {
        let evil = "\u{1B}]52;c;cm0gLXJmIH4vKg==\u{07}\u{1B}]0;owned\u{07}\u{9B}31m\u{202E}txt.exe\u{E0041}"
        let errorBody = try JSONSerialization.data(withJSONObject: ["error": evil])
        let server = try HostileServer(host: "127.0.0.1") { _ in HostileServer.Response(status: 403, headers: [("Content-Type", "application/json")], body: Array(errorBody)) }
        defer { server.stop() }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        var caught: FetchError?
        do { _ = try await fetcher.fetch(server.base + "/", limit: 1 << 20, deadline: .seconds(20)) } catch { caught = error }
        let error = try #require(caught, "the 403 was taken")
        let descriptions = [error.description, FetchError.unreachable(host: evil, reason: evil).description, FetchError.timedOut(host: evil).description,
                            FetchError.insecure(host: evil, reason: evil).description, FetchError.redirectedWrite(to: evil).description,
                            FetchError.redirectNotWeb(evil).description]
        for description in descriptions {
            #expect(!description.unicodeScalars.contains(where: PlainText.isUnsafe), "\(description.debugDescription)")
        }
        #expect(error.description.contains("]52;c;"), "the text is kept, made harmless: \(error.description.debugDescription)")
    }
}


import FeedClient
import FeedFormat
@testable import FeedServer
import Foundation
import SavedState
import Testing

/// Likes that reach the server and are never lost (issue 26): the outbox against
/// destinations-feed, failing, killed and started again.
@Suite(.serialized) struct LikeOutboxTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)").path
    var serverState: String { folder + "/server.jsonl" }

    /// The server's journal: one line per action it took, with the key it came with.
    func journal() throws -> [(key: String?, index: Int, favourite: Bool)] {
        struct Line: Decodable { var key: String?; var index: Int; var favourite: Bool }
        let data = try Data(contentsOf: URL(fileURLWithPath: serverState))
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Line.self, from: Data($0)) }
            .map { ($0.key, $0.index, $0.favourite) }
    }

    /// A server keeping its favourites in ``serverState``; on `port` again after a kill (tried
    /// for a few seconds: the old one's socket may take a moment to go).
    func server(port: Int = 0, failRate: Double = 0, seed: UInt64 = 1) async throws -> LoopbackFeed {
        var attempt = 0
        while true {
            do {
                return try await LoopbackFeed.start {
                    $0.port = port
                    $0.shape.failRate = failRate
                    $0.seed = seed
                    $0.statePath = serverState
                }
            } catch where port != 0 && attempt < 50 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    func outbox(_ feed: String, store: StateStore) throws -> LikeOutbox {
        LikeOutbox(feedURL: feed, store: store, fetcher: try HTTPFetcher(), wake: nil, backoff: { _ in .milliseconds(5) })
    }

    /// The issue's target: 100 likes (and unlikes) with the server failing 30 % of requests
    /// — half of those after it took the like, so the answer is what is lost — killed twice
    /// mid-run, and the app killed once between making likes and sending them. The server
    /// ends with exactly the likes the person has, each key acted on once.
    @Test func aHundredLikesThroughFailuresAndKillsArriveExactlyOnce() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var feed = try await server(failRate: 0.3, seed: 26)
        let port = feed.port, timeline = feed.timeline
        var store = try StateStore(folder: folder)
        var sender = try outbox(timeline, store: store)
        sender.start()
        var generator = SystemRandomNumberGenerator()
        var liked: [String: Bool] = [:]
        for action in 0..<100 {
            let post = String(200 - Int.random(in: 0..<40, using: &generator))
            let now = !(liked[post] ?? false)
            liked[post] = now
            try store.setLiked(now, post: post, title: "Post \(post)", in: timeline, send: true)
            sender.wake()
            if action == 33 || action == 66 {
                // The server killed: sends fail as unreachable and wait; then it comes back.
                await feed.stop()
                try await Task.sleep(for: .milliseconds(50))
                feed = try await server(port: port, failRate: 0.3, seed: UInt64(action))
            }
            if action == 50 {
                // The app killed: its sender stops wherever it was; the next run reopens the
                // database and sends what is left, with the same keys.
                sender.stop()
                store = try StateStore(folder: folder)
                sender = try outbox(timeline, store: store)
                sender.start()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(await sender.drain(timeout: .seconds(120)), "the outbox emptied")
        sender.stop()
        // Exactly what the person made: a 5xx is never rolled back (the server may have taken it).
        let expected = liked.filter(\.value).keys.compactMap(Int.init).sorted()
        #expect(feed.server.favouritedStatuses == expected)
        #expect(store.likes(in: timeline).mapValues(\.liked) == liked, "the app's record agrees")
        let keys = try journal().compactMap(\.key)
        #expect(Set(keys).count == keys.count, "no key acted on twice")
        #expect(feed.stats.status500 > 0 && feed.stats.replays > 0, "failures happened, and sends repeated after a lost answer were not acted on")
        await feed.stop()
    }

    /// Offline likes wait, and go in the order they were made once the server is there.
    @Test func offlineLikesAreSentInOrderWhenTheServerComesBack() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let probe = try await server()
        let port = probe.port, timeline = probe.timeline
        await probe.stop()
        let store = try StateStore(folder: folder)
        let sender = try outbox(timeline, store: store)
        sender.start()
        let made: [(String, Bool)] = [("200", true), ("199", true), ("200", false), ("198", true)]
        for (post, now) in made {
            try store.setLiked(now, post: post, title: "Post \(post)", in: timeline, send: true)
            sender.wake()
        }
        // Until the first failed send is told (30 s: a bound for a hang, not a timing).
        var waiting: [LikeOutboxEvent] = []
        for _ in 0..<3000 where !waiting.contains(where: { if case .waiting = $0 { true } else { false } }) {
            waiting += sender.events.drain()
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(waiting.contains { if case .waiting(_, let error, _) = $0 { error.isUnreachable } else { false } }, "no server: the likes wait")
        #expect(store.pending(in: timeline).count == 4)
        let feed = try await server(port: port)
        #expect(await sender.drain(timeout: .seconds(30)))
        sender.stop()
        #expect(try journal().map { "\($0.index):\($0.favourite)" } == ["0:true", "1:true", "0:false", "2:true"], "sent in order")
        #expect(feed.server.favouritedStatuses == [198, 199])
        await feed.stop()
    }

    /// A refusal (a status the server does not have) rolls the like back and says why.
    @Test func aRefusedLikeIsRolledBack() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let feed = try await server()
        let store = try StateStore(folder: folder)
        let sender = try outbox(feed.timeline, store: store)
        sender.start()
        try store.setLiked(true, post: "123456", title: "Gone", in: feed.timeline, send: true)
        sender.wake()
        #expect(await sender.drain(timeout: .seconds(30)))
        sender.stop()
        let events = sender.events.drain()
        let rolledBack = events.compactMap { event -> (StateStore.OutboxEntry, FetchError, Bool?)? in
            if case let .rolledBack(entry, error, likedNow) = event { (entry, error, likedNow) } else { nil }
        }
        #expect(rolledBack.count == 1 && rolledBack.first?.0.title == "Gone" && rolledBack.first?.2 == false)
        #expect(rolledBack.first.map { "\($0.1)".contains("404") } == true, "the reason: \(rolledBack.first.map { "\($0.1)" } ?? "")")
        #expect(store.likes(in: feed.timeline)["123456"]?.liked == false && sender.rolledBack == 1)
        await feed.stop()
    }

    /// Issue 45: a like and an un-like of a boost leave the server with neither. The app's
    /// post for a boost is the boosted status, so both go to its id; the server answers a
    /// boost's own id as Mastodon does (favourite reaches the boosted status, un-favourite
    /// finds nothing), so the boost's id would leave the like behind — shown first.
    @Test func aLikeAndAnUnlikeOfABoostLeaveTheServerWithNeither() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let feed = try await LoopbackFeed.start {
            $0.statePath = serverState
            $0.shapes = .fediverse
        }
        let fetcher = try HTTPFetcher()
        let body = try await fetcher.fetch(feed.timeline + "?limit=40", limit: 8 << 20, deadline: .seconds(30)).bytes
        let page = try TimelinePage.parse(body, link: nil)
        let boost = try #require(page.posts.first { $0.boostedBy != nil }, "the fediverse shapes serve boosts")
        #expect(boost.boostedBy == "Rover")
        #expect(Int(boost.statusID)! < ServedPosts.boostIDOffset, "the boosted status's id, not the boost's")
        let store = try StateStore(folder: folder)
        let sender = try outbox(feed.timeline, store: store)
        sender.start()
        // The wrong way, to show the server keeps what a boost's id leaves behind.
        let boostID = String(Int(boost.statusID)! + ServedPosts.boostIDOffset)
        for liked in [true, false] {
            try store.setLiked(liked, post: boostID, title: "boost", in: feed.timeline, send: true)
            sender.wake()
            #expect(await sender.drain(timeout: .seconds(30)))
        }
        #expect(feed.server.favouritedStatuses == [Int(boost.statusID)!], "un-favouriting a boost's id found nothing")
        #expect(feed.stats.favouritesByBoostID == 2)
        // The app's way: the boosted status's id, both times.
        for liked in [true, false] {
            try store.setLiked(liked, post: boost.statusID, title: boost.title, in: feed.timeline, send: true)
            sender.wake()
            #expect(await sender.drain(timeout: .seconds(30)))
        }
        sender.stop()
        #expect(feed.server.favouritedStatuses.isEmpty, "neither like is left")
        #expect(feed.stats.favouritesByBoostID == 2, "no request named the boost")
        fetcher.shutdown()
        await feed.stop()
    }

    @Test func statusesLiveBesideTheTimeline() {
        #expect(MastodonDialect.statusesURL(feedURL: "https://h.example/api/v1/timelines/public?limit=40") == "https://h.example/api/v1/statuses/")
        #expect(MastodonDialect.statusesURL(feedURL: "http://127.0.0.1:8080/prefix/api/v1/timelines/tag/x") == "http://127.0.0.1:8080/prefix/api/v1/statuses/")
        #expect(MastodonDialect.statusesURL(feedURL: "http://127.0.0.1:8080/_hostile/escapes") == "http://127.0.0.1:8080/api/v1/statuses/")
    }
}

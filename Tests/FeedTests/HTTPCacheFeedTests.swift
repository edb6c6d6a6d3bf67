import CoreKit
import FeedClient
import FeedFormat
import Foundation
import HTTPCache
import TestSupport
import Testing

/// Each RFC 9111 behaviour of the client's disk cache against destinations-feed's `/_cache/`
/// routes, which send exactly the caching headers a test names and count what reaches them.
/// Ages are read on the test's own clock: nothing here waits for time to pass.
@Suite(.serialized) struct HTTPCacheFeedTests {
    struct Count: Decodable, Equatable { var requests = 0, notModified = 0 }

    /// A fetcher with a disk cache in a fresh folder (or `folder`) and a clock the test moves.
    final class Client: Sendable {
        /// Starts at the real time: the server dates its answers on the real clock, and a
        /// client clock ahead of it would make every answer old on arrival (apparent age).
        let clock = Lock<Int64>(Int64(Date().timeIntervalSince1970))
        let fetcher: HTTPFetcher
        let folder: String
        /// The client whose folder this one opens again: kept alive with it, since the
        /// folder goes when its owner does.
        private let owner: Client?
        init(sharing other: Client? = nil) throws {
            owner = other
            self.folder = other?.folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("http-cache-\(UUID().uuidString)").path
            let clock = clock
            fetcher = try HTTPFetcher(cache: try DiskCache(folder: self.folder, capacity: 1 << 20), now: { clock.withLock { $0 } })
        }
        deinit { if owner == nil { try? FileManager.default.removeItem(atPath: folder) } }
        func advance(_ seconds: Int64) { clock.withLock { $0 += seconds } }
        func get(_ url: String, _ headers: [(String, String)] = []) async throws -> String {
            String(decoding: try await fetcher.fetchCached(url, headers: headers, limit: 1 << 20, deadline: .seconds(30)).bytes, as: UTF8.self)
        }
    }

    static func counts(_ feed: LoopbackFeed) async throws -> [String: Count] {
        let plain = try HTTPFetcher()
        defer { plain.shutdown() }
        let body = try await plain.fetch("\(feed.base)/_cache/_counts", limit: 1 << 20, deadline: .seconds(30)).bytes
        return try JSONDecoder().decode([String: Count].self, from: Data(body))
    }

    @Test func aFreshResponseIsUsedWithoutARequestThenRevalidatedWithItsETag() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let client = try Client()
        defer { client.fetcher.shutdown() }
        let url = "\(feed.base)/_cache/fresh?cc=max-age%3D100&etag=v1&body=hello"
        #expect(try await client.get(url) == "hello")
        client.advance(90)  // (the server's Date has whole seconds: ages here may read 1 s more)
        #expect(try await client.get(url) == "hello")
        #expect(try await Self.counts(feed)["fresh"] == Count(requests: 1, notModified: 0))
        client.advance(20)  // 110 s old: stale
        #expect(try await client.get(url) == "hello")
        #expect(try await Self.counts(feed)["fresh"] == Count(requests: 2, notModified: 1))
        let tally = client.fetcher.cacheFigures
        #expect(tally.diskHits == 1 && tally.revalidated304 == 1 && tally.bytesSaved == 10)
    }

    /// A second run (a new cache on the same folder) while entries are fresh asks nothing.
    @Test func aSecondRunWhileFreshSendsNoRequest() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let first = try Client()
        let url = "\(feed.base)/_cache/again?cc=max-age%3D600&body=photo-bytes"
        #expect(try await first.get(url) == "photo-bytes")
        first.fetcher.shutdown()
        let second = try Client(sharing: first)
        defer { second.fetcher.shutdown() }
        #expect(try await second.get(url) == "photo-bytes")
        #expect(try await Self.counts(feed)["again"]?.requests == 1)
        #expect(second.fetcher.bytesReceived == 0)
    }

    @Test func noStoreIsAskedEveryTimeAndNoCacheIsRevalidatedEveryTime() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let client = try Client()
        defer { client.fetcher.shutdown() }
        for _ in 0..<3 { _ = try await client.get("\(feed.base)/_cache/never?cc=no-store&etag=x") }
        #expect(try await Self.counts(feed)["never"] == Count(requests: 3, notModified: 0))
        for _ in 0..<3 { _ = try await client.get("\(feed.base)/_cache/ask?cc=max-age%3D600%2C%20no-cache&etag=x") }
        #expect(try await Self.counts(feed)["ask"] == Count(requests: 3, notModified: 2))
    }

    @Test func lastModifiedAloneRevalidatesWithIfModifiedSince() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let client = try Client()
        defer { client.fetcher.shutdown() }
        let url = "\(feed.base)/_cache/dated?cc=max-age%3D0&modified=1700000000"
        _ = try await client.get(url)
        _ = try await client.get(url)
        #expect(try await Self.counts(feed)["dated"] == Count(requests: 2, notModified: 1))
    }

    /// Inside `stale-while-revalidate` the stored copy comes back at once and the server is
    /// asked behind it; past the window the client waits for the server.
    @Test func staleWhileRevalidateAnswersAtOnceAndRefreshesBehind() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let client = try Client()
        defer { client.fetcher.shutdown() }
        let url = "\(feed.base)/_cache/swr?cc=max-age%3D10%2C%20stale-while-revalidate%3D100&etag=v1&body=old"
        _ = try await client.get(url)
        client.advance(50)
        #expect(try await client.get(url) == "old")
        #expect(client.fetcher.cacheFigures.staleServed == 1)
        let deadline = ContinuousClock.now + .seconds(60)  // a bound for a hang, not a timing
        while try await Self.counts(feed)["swr"]?.notModified != 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await Self.counts(feed)["swr"] == Count(requests: 2, notModified: 1))
    }

    /// Inside `stale-if-error` a failing server gets the stored copy used; past it, the error.
    @Test func staleIfErrorStandsInForABrokenServerWithinItsWindow() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let client = try Client()
        defer { client.fetcher.shutdown() }
        let url = "\(feed.base)/_cache/sie?cc=max-age%3D10%2C%20stale-if-error%3D100&etag=v1&body=kept"
        _ = try await client.get(url)
        let plain = try HTTPFetcher()
        _ = try await plain.fetch("\(feed.base)/_cache/_fail?name=sie", limit: 1 << 10, deadline: .seconds(30))
        plain.shutdown()
        client.advance(60)
        #expect(try await client.get(url) == "kept")
        #expect(client.fetcher.cacheFigures.staleServed == 1)
        client.advance(100)  // 160 s old: 150 s stale, past the window
        await #expect(throws: FetchError.self) { _ = try await client.get(url) }
    }

    @Test func varyKeepsOneCopyPerRequestVariant() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let client = try Client()
        defer { client.fetcher.shutdown() }
        let url = "\(feed.base)/_cache/vary?cc=max-age%3D600&vary=Accept&body=photo"
        #expect(try await client.get(url, [("Accept", "image/jpeg")]) == "photo for image/jpeg")
        #expect(try await client.get(url, [("Accept", "image/png")]) == "photo for image/png")
        #expect(try await client.get(url, [("Accept", "image/jpeg")]) == "photo for image/jpeg")
        #expect(try await client.get(url, [("Accept", "image/png")]) == "photo for image/png")
        #expect(try await Self.counts(feed)["vary"]?.requests == 2)
    }

    /// The target: a second run over the same feed while its photos are fresh
    /// downloads no image byte. Twenty of destinations-feed's previews (immutable, a week
    /// fresh) through the photo transport, then again through a new fetcher and cache on the
    /// same folder: the server sees no second request, the client receives nothing.
    @Test func aSecondRunDownloadsNoImageByte() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let urls = (1...20).map { "\(feed.base)/media/preview/\($0).jpg" }
        let first = try Client()
        var bodies: [[UInt8]] = []
        for url in urls { bodies.append(try await first.fetcher.photo(at: url) { _, _ in }) }
        first.fetcher.shutdown()
        #expect(feed.stats.previewRequests == 20 && first.fetcher.bytesReceived > 0)
        let second = try Client(sharing: first)
        defer { second.fetcher.shutdown() }
        second.advance(3600)  // an hour later: still fresh (max-age a week)
        for (url, body) in zip(urls, bodies) { #expect(try await second.fetcher.photo(at: url) { _, _ in } == body) }
        #expect(feed.stats.previewRequests == 20, "the second run asked the server again")
        #expect(second.fetcher.bytesReceived == 0 && second.fetcher.cacheFigures.diskHits == 20)
    }

    /// Offline (issue 26, item 3): with the server gone, the first page comes from the disk
    /// cache, marked with when it was fetched, and so do the photos that were kept; a photo
    /// never fetched fails as unreachable.
    @Test func withTheServerGoneTheFeedStartsFromTheCache() async throws {
        let feed = try await LoopbackFeed.start()
        let online = try Client()
        let first = await onOwnThread { try? FeedPager(url: feed.timeline, fetcher: online.fetcher, wake: nil).loadFirstPage() }
        let posts = try #require(first).page.posts
        #expect(first?.offlineSince == nil && posts.count == 40)
        let kept = posts[0].thumbnailURL, neverFetched = posts[1].thumbnailURL
        let photo = try await online.fetcher.photo(at: kept) { _, _ in }
        online.fetcher.shutdown()
        await feed.stop()

        let offline = try Client(sharing: online)
        defer { offline.fetcher.shutdown() }
        offline.advance(86_400)  // a day later: the page (max-age 30) is long stale
        let again = await onOwnThread { try? FeedPager(url: feed.timeline, fetcher: offline.fetcher, wake: nil).loadFirstPage() }
        let arrival = try #require(again, "no first page without the server")
        #expect(arrival.page.posts.map(\.thumbnailURL) == posts.map(\.thumbnailURL))
        #expect(arrival.offlineSince == online.clock.withLock { $0 })
        #expect(try await offline.fetcher.photo(at: kept) { _, _ in } == photo)
        await #expect(throws: (any Error).self) { _ = try await offline.fetcher.photo(at: neverFetched) { _, _ in } }
        #expect(offline.fetcher.cacheFigures.offlineServed >= 1 && offline.fetcher.bytesReceived == 0)
    }
}

import CoreKit
@testable import FeedClient
import FeedFormat
import FeedServer
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// The real client against `destinations-feed` on loopback: what the server counted is
/// the evidence (requests, bytes, transfers of one URL at once).
@Suite(.serialized) struct FeedClientTests {
    @Test func pagesFollowTheLinkHeaderToTheEnd() async throws {
        let feed = try await LoopbackFeed.start { $0.posts = 95 }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let pager = FeedPager(url: feed.timeline, fetcher: fetcher, wake: nil)
        let first = try await onOwnThread { Result { () throws(FetchError) in try pager.loadFirstPage() } }.get()
        #expect(first.page.posts.count == 40)
        #expect(first.placeholders.count == 40, "every bundled post has a BlurHash")
        var posts = first.page.posts
        while !pager.hasEnded {
            #expect(pager.loadMore())
            #expect(!pager.loadMore(), "one request per cursor at a time")
            posts += try await nextArrival(pager).page.posts
        }
        #expect(posts.count == 95)
        #expect(Set(posts.map(\.statusID)).count == 95)
        #expect(pager.pages == 3)
        #expect(feed.stats.timelineRequests == 3)
        #expect(!pager.loadMore(), "the end is the end")
    }

    @Test func aFailingFirstPageIsAskedThreeTimesThenSaysWhy() async throws {
        let feed = try await LoopbackFeed.start { $0.shape.failRate = 1 }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let result = await onOwnThread { Result { () throws(FetchError) in try FeedPager(url: feed.timeline, fetcher: fetcher, wake: nil).loadFirstPage() } }
        #expect(throws: FetchError.status(500, message: "Something went wrong on our end (--fail-rate)")) { try result.get() }
        #expect(feed.stats.timelineRequests == FeedPager.firstPageAttempts)
    }

    @Test func aBearerTokenIsSentAndARefusalSaysWhy() async throws {
        let feed = try await LoopbackFeed.start { $0.token = "s3cret" }
        defer { Task { await feed.stop() } }
        let anonymous = try HTTPFetcher()
        defer { anonymous.shutdown() }
        let refused = await onOwnThread { Result { () throws(FetchError) in try FeedPager(url: feed.timeline, fetcher: anonymous, wake: nil).loadFirstPage() } }
        #expect(throws: FetchError.status(401, message: "The access token is invalid")) { try refused.get() }
        let member = try HTTPFetcher(credential: try Credential(token: "s3cret", for: feed.timeline))
        defer { member.shutdown() }
        let page = try await onOwnThread { Result { () throws(FetchError) in try FeedPager(url: feed.timeline, fetcher: member, wake: nil).loadFirstPage() } }.get()
        #expect(page.page.posts.count == 40)
    }

    /// What a photo's failure tells the store: a 5xx or 429 may pass (asked for again after a
    /// backoff), a 404 will not.
    @Test func aPhotoFailureSaysWhetherItMayPass() async throws {
        func failure(_ url: String, _ fetcher: HTTPFetcher) async -> ImageError? {
            do {
                _ = try await fetcher.photo(at: url) { _, _ in }
                return nil
            } catch { return error }
        }
        let failing = try await LoopbackFeed.start { $0.shape.failRate = 1 }
        defer { Task { await failing.stop() } }
        let healthy = try await LoopbackFeed.start { $0.posts = 5 }
        defer { Task { await healthy.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let server500 = await failure("\(failing.base)/media/preview/1.jpg", fetcher)
        #expect(server500?.isTransient == true, "\(String(describing: server500))")
        #expect(server500?.shortLabel == "will retry")
        let tooMany = await failure("\(healthy.base)/_hostile/error", fetcher)
        #expect(tooMany?.isTransient == true, "\(String(describing: tooMany))")
        let notFound = await failure("\(healthy.base)/media/preview/999999.jpg", fetcher)
        #expect(notFound != nil && notFound?.isTransient == false, "\(String(describing: notFound))")
        #expect(await failure("\(healthy.base)/media/preview/1.jpg", fetcher) == nil)
    }

    @Test func oneTransferPerURLAtATime() async throws {
        // A second of latency: the eight requests below join the first transfer long before it ends.
        let feed = try await LoopbackFeed.start { $0.shape.latency = .seconds(1) }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let loader = LoaderDriver(fetcher: fetcher)
        // The same photo at eight sizes (a cell, a wider cell, the detail view …).
        let url = "\(feed.base)/media/preview/7.jpg"
        for columns in 8..<16 { loader.load(url, columns: columns) }
        let results = try await loader.waitForResults(8)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        #expect(feed.stats.previewRequests == 1, "the server saw one transfer")
        #expect(loader.network.transfers == 1)
        #expect(loader.network.coalesced == 7)
        #expect(loader.network.timeToImage.count == 8)
        // Bytes are counted by URL, once for the one transfer: what the report's
        // image_bytes_never_shown adds up for the URLs no cell showed.
        #expect(loader.network.bytesByURL == [url: loader.network.bytes] && loader.network.bytes > 0)
        #expect(loader.network.bytesNeverShown(shown: [url]) == 0)
        #expect(loader.network.bytesNeverShown(shown: []) == loader.network.bytes)
    }

    /// Every slot the loader's policy allows is a transfer on the wire: the HTTP client opens
    /// that many connections to the host (it held HTTP/1.1 to 8 before, and the rest waited
    /// in its own first-come queue, beyond the reach of priorities).
    @Test func everySlotIsATransferOnTheWire() async throws {
        // The server holds every body until `slots` are in flight: they overlap at any speed if
        // the client opens that many connections, and never if it opens fewer (then the wait
        // below ends at its bound). Slow bodies instead (200 B/s, 40 s each) still missed once
        // under TSan with both cores busy (issue 47).
        let slots = TransferPolicy().connections
        let feed = try await LoopbackFeed.start { $0.shape.holdMediaBodiesUntil = slots }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let loader = LoaderDriver(fetcher: fetcher, policy: TransferPolicy(connections: slots, prefetchConnections: slots, burst: Double(slots)))
        let requests = (0..<slots).map { loader.load("\(feed.base)/media/preview/\($0).jpg", columns: 10) }
        try await loader.frames(until: { feed.stats.mostConcurrentMedia >= slots }, timeout: .seconds(300))  // a hang's bound
        #expect(feed.stats.mostConcurrentMedia == slots)
        for request in requests { request.cancel() }
        loader.frame()
    }

    @Test func cancellingStopsTheBytes() async throws {
        // 10 KB/s: an original of several hundred KB takes most of a minute; cancelled once its
        // first bytes are in (what is asserted holds unless the machine stalls for seconds).
        let feed = try await LoopbackFeed.start { $0.shape.bytesPerSecond = 10_000 }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let loader = LoaderDriver(fetcher: fetcher)
        let request = loader.load("\(feed.base)/media/original/0.jpg", columns: 20)
        try await loader.frames(until: { loader.network.bytes > 0 })
        request.cancel()
        loader.frame()  // the cancel is read here
        #expect(loader.network.cancelledInFlight == 1)
        // The server sees its client leave; give it time to notice.
        let deadline = ContinuousClock.now + .seconds(10)
        while feed.stats.abandoned == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let stats = feed.stats
        let whole = try Data(contentsOf: URL(fileURLWithPath: BundledPhotos.original(0))).count
        #expect(stats.abandoned == 1)
        #expect(stats.originalBytes < whole / 2, "\(stats.originalBytes) of \(whole) bytes sent")
        #expect(loader.network.bytesAfterCancel <= 64 << 10, "\(loader.network.bytesAfterCancel) bytes after the cancel")
        #expect(loader.results.isEmpty, "nothing delivered for a cancelled request")
        #expect(loader.network.bytesNeverShown(shown: []) == loader.network.bytes, "a transfer cut short counts as never shown")
    }

    @Test func aRequestCancelledBeforeItsTransferStartedCostsNothing() async throws {
        let feed = try await LoopbackFeed.start { $0.shape.latency = .milliseconds(400) }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        // One connection: the second transfer waits behind the first.
        let loader = LoaderDriver(fetcher: fetcher, policy: TransferPolicy(connections: 1, prefetchConnections: 1))
        loader.load("\(feed.base)/media/preview/1.jpg", columns: 10)
        let waiting = loader.load("\(feed.base)/media/preview/2.jpg", columns: 10)
        waiting.cancel()
        _ = try await loader.waitForResults(1)
        loader.frame()
        #expect(loader.network.cancelledBeforeStart == 1)
        #expect(loader.network.transfers == 1)
        #expect(feed.stats.previewRequests == 1, "the cancelled one never reached the server")
    }

    /// The server drops every body after 40 KB (`--reset-after`): the original arrives whole
    /// anyway, a range at a time, each resume naming the copy it continues (If-Range), with
    /// progress against the whole length.
    @Test func anOriginalResumesAfterEveryDroppedConnection() async throws {
        let feed = try await LoopbackFeed.start { $0.shape.resetAfter = 40_000 }
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let whole = try Data(contentsOf: URL(fileURLWithPath: BundledPhotos.original(0)))
        let progress = Lock<(received: Int, totals: Set<Int?>)>((0, []))
        let body = try await fetcher.fetchResuming("\(feed.base)/media/original/0.jpg", limit: 64 << 20, deadline: .seconds(60)) { bytes, total in
            progress.withLock { state in
                state.received += bytes
                state.totals.insert(total)
            }
        }
        #expect(Data(body.bytes) == whole, "every byte, once, in order")
        // At least one resume for each 40 KB after the first; more when a reset also lost
        // bytes the client had not read yet (each resume then starts where it really is).
        let stats = feed.stats
        #expect(fetcher.resumeCount >= (whole.count - 1) / 40_000, "\(fetcher.resumeCount) resumes for \(whole.count) bytes")
        #expect(stats.status206 == fetcher.resumeCount, "every resume asked for a range and got one")
        #expect(stats.resets == fetcher.resumeCount, "one resume a dropped connection")
        #expect(progress.withLock { $0.received } == whole.count)
        #expect(progress.withLock { $0.totals } == [whole.count], "progress is against the whole photo, every time")
    }

    /// A body cut short by a server that names no version of it is not resumed: a range of
    /// another version would make a corrupt photo.
    @Test func withoutAValidatorNothingIsResumed() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        await #expect(throws: FetchError.cutShort(received: 100)) {
            _ = try await fetcher.fetchResuming("\(feed.base)/_hostile/lying-length", limit: 1 << 20, deadline: .seconds(30))
        }
        #expect(fetcher.resumeCount == 0)
    }

    @Test func rangesAndValidatorsAreReadAsRFC9110Says() {
        #expect(ContentRange("bytes 100-199/1000") == ContentRange("bytes 100-199/1000") && ContentRange("bytes 100-199/1000")?.total == 1000)
        #expect(ContentRange("bytes 100-199/*")?.total == nil && ContentRange("bytes 100-199/*")?.first == 100)
        for bad in ["bytes 200-100/1000", "bytes */1000", "items 1-2/3", "bytes 1-2", ""] { #expect(ContentRange(bad) == nil, "\(bad)") }
        #expect(HTTPFetcher.rangeValidator([("ETag", "\"abc\""), ("Last-Modified", "Tue, 24 Nov 2026 10:00:00 GMT")]) == "\"abc\"")
        #expect(HTTPFetcher.rangeValidator([("etag", "W/\"abc\""), ("Last-Modified", "Tue, 24 Nov 2026 10:00:00 GMT")]) == "Tue, 24 Nov 2026 10:00:00 GMT",
                "a weak tag never names a range's version")
        #expect(HTTPFetcher.rangeValidator([("Content-Type", "image/jpeg")]) == nil)
    }

    @Test func photosThatAreNotPhotosFailCleanly() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let loader = LoaderDriver(fetcher: fetcher)
        for path in ["lying-length", "endless", "not-an-image", "html"] { loader.load("\(feed.base)/_hostile/\(path)", columns: 10) }
        let results = try await loader.waitForResults(4, timeout: .seconds(30))
        #expect(results.allSatisfy { if case .failure = $0 { true } else { false } })
        #expect(loader.network.failed >= 2, "the transfers that broke off are counted as failed")
    }

    @Test func validatorsAndRanges() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let url = "\(feed.base)/media/preview/3.jpg"
        let whole = try await fetcher.fetch(url, limit: 1 << 20, deadline: .seconds(10))
        let etag = try #require(whole.header("ETag"))
        #expect(whole.header("Last-Modified").flatMap(HTTPDate.parse) != nil)
        #expect(whole.header("Cache-Control")?.contains("max-age") == true)
        let notModified = try await fetcher.fetch(url, headers: [("If-None-Match", etag)], limit: 1 << 20, deadline: .seconds(10))
        #expect(notModified.status == 304 && notModified.bytes.isEmpty)
        let tail = try await fetcher.fetch(url, headers: [("Range", "bytes=100-"), ("If-Range", etag)], limit: 1 << 20, deadline: .seconds(10))
        #expect(tail.status == 206)
        #expect(tail.bytes == Array(whole.bytes[100...]))
        // A validator that no longer matches: the whole body again.
        let changed = try await fetcher.fetch(url, headers: [("Range", "bytes=100-"), ("If-Range", "\"other\"")], limit: 1 << 20, deadline: .seconds(10))
        #expect(changed.status == 200 && changed.bytes == whole.bytes)
        // The preview was made once and kept: the same bytes from a new server on the same folder.
        #expect(whole.bytes.count > 1000)
    }

    @Test func previewsAreMadeOnceAndKept() async throws {
        let folder = temporaryFolder()
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let first = try await LoopbackFeed.start { $0.previewFolder = folder.path }
        let made = try await fetcher.fetch("\(first.base)/media/preview/5.jpg", limit: 1 << 20, deadline: .seconds(10))
        await first.stop()
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(kept.filter { $0.hasSuffix(".jpg") }.count == 1, "\(kept)")
        #expect(!kept.contains { $0.contains(".part") || $0.hasPrefix(".") }, "no partial file left: \(kept)")
        // A server started again on the same folder serves the same bytes, the same validator.
        let second = try await LoopbackFeed.start { $0.previewFolder = folder.path }
        defer { Task { await second.stop() } }
        let served = try await fetcher.fetch("\(second.base)/media/preview/5.jpg", limit: 1 << 20, deadline: .seconds(10))
        #expect(served.bytes == made.bytes)
        #expect(served.header("ETag") == made.header("ETag"))
    }

    @Test func hostileServersGetAClearMessage() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        func page(_ path: String) async -> Result<FeedPageArrival, FetchError> {
            await onOwnThread { Result { () throws(FetchError) in try FeedPager(url: "\(feed.base)/_hostile/\(path)", fetcher: fetcher, wake: nil).loadFirstPage() } }
        }
        await #expect(throws: FetchError.notATimeline(.html)) { try await page("html").get() }
        await #expect(throws: FetchError.status(429, message: "Too many requests")) { try await page("error").get() }
        await #expect(throws: FetchError.tooLarge(limit: FeedPager.pageLimit)) { try await page("huge").get() }
        await #expect(throws: FetchError.tooManyRedirects) { try await page("redirect-loop").get() }
        await #expect(throws: FetchError.redirectNotWeb("file:///etc/passwd")) { try await page("redirect-file").get() }
        if case .failure(.notATimeline(.malformedJSON)) = await page("truncated") {
        } else {
            Issue.record("a truncated page is an error")
        }
        let escapes = try await page("escapes").get()
        for post in escapes.page.posts {
            for text in [post.title, post.region] {
                #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
            }
        }
    }

    @Test func aSlowLorisTimesOut() async throws {
        let feed = try await LoopbackFeed.start()
        defer { Task { await feed.stop() } }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        await #expect(throws: FetchError.timedOut(host: "127.0.0.1")) {
            try await fetcher.fetch("\(feed.base)/_hostile/slow-loris", limit: 1 << 20, deadline: .seconds(2))
        }
    }

    @Test func unreachableAndBadURLs() async throws {
        let fetcher = try HTTPFetcher(connectTimeout: .seconds(2))
        defer { fetcher.shutdown() }
        // A port nothing listens on (bound and closed by the server helper would race; 9 is discard, closed here).
        await #expect(throws: FetchError.self) { try await fetcher.fetch("http://127.0.0.1:9/api/v1/timelines/public", limit: 1024, deadline: .seconds(5)) }
        await #expect(throws: FetchError.badURL("ftp://example.org/x")) { try await fetcher.fetch("ftp://example.org/x", limit: 1024, deadline: .seconds(5)) }
        await #expect(throws: FetchError.badURL("not a url")) { try await fetcher.fetch("not a url", limit: 1024, deadline: .seconds(5)) }
    }

    @Test func httpsWithHTTP2AndACertificateMadeNow() async throws {
        let folder = temporaryFolder()
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0, "openssl made a certificate")
        let feed = try await LoopbackFeed.start {
            $0.tlsCertificate = certificate
            $0.tlsKey = key
        }
        defer { Task { await feed.stop() } }
        #expect(feed.scheme == "https")
        // Not trusted: refused. The refusals fail fast, as the app's pages do: the client's
        // pool would otherwise try the handshake again until the connect timeout (5 s each).
        let stranger = try HTTPFetcher()
        defer { stranger.shutdown() }
        await #expect(throws: FetchError.self) { try await stranger.fetch(feed.timeline, limit: 1 << 20, deadline: .seconds(10), failFast: true) }
        let trusting = try HTTPFetcher(trust: certificate)
        defer { trusting.shutdown() }
        let page = try await trusting.fetch(feed.timeline + "?limit=3", limit: 1 << 20, deadline: .seconds(10))
        let parsed = try TimelinePage.parse(page.bytes, link: page.header("Link"))
        #expect(parsed.posts.count == 3)
        #expect(parsed.posts[0].thumbnailURL.hasPrefix("https://127.0.0.1:\(feed.port)/"))
        // The same certificate, trusted, on a server that speaks nothing newer than TLS 1.1:
        // refused (issue 43), and the message says why and names the flag only where it helps.
        let outdated = try await LoopbackFeed.start {
            $0.tlsCertificate = certificate
            $0.tlsKey = key
            $0.legacyTLSOnly = true
        }
        defer { Task { await outdated.stop() } }
        var refusal: FetchError?
        do { _ = try await trusting.fetch(outdated.timeline, limit: 1 << 20, deadline: .seconds(10), failFast: true) } catch { refusal = error }
        guard case .insecure(_, let reason)? = refusal else { Issue.record("TLS 1.1 was accepted: \(String(describing: refusal))"); return }
        #expect(reason.hasPrefix("the server speaks no TLS version this app accepts (1.2 or newer)"), "\(reason)")
        var untrusted: FetchError?
        do { _ = try await stranger.fetch(feed.timeline, limit: 1 << 20, deadline: .seconds(10), failFast: true) } catch { untrusted = error }
        #expect(untrusted?.description.contains("its certificate is not trusted") == true && untrusted?.description.contains("--trust-certificate") == true,
                "\(String(describing: untrusted))")
    }

    // MARK: Helpers

    func nextArrival(_ pager: FeedPager) async throws -> FeedPageArrival {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            for event in pager.events.drain() {
                switch event {
                case .arrived(let arrival): return arrival
                case .failed(let error, _): throw error
                }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("no page arrived")
    }
}

/// `--feed @user@server` and `#tag@server` against destinations-feed (issue 45): the
/// account is looked up, then its statuses page; the tag's timeline pages with its query.
@Suite struct FeedAddressOverTheWireTests {
    @Test func anAccountAndATagArePagedFromTheirNames() async throws {
        let feed = try await LoopbackFeed.start { $0.posts = 200 }
        let fetcher = try HTTPFetcher()
        let account = try FeedAddressResolver.timelineURL(for: try FeedAddress.parse("@meadow@127.0.0.1:\(feed.port)"), fetcher: fetcher)
        #expect(account == "http://127.0.0.1:\(feed.port)/api/v1/accounts/meadow/statuses?only_media=true&exclude_replies=true")
        let page = try TimelinePage.parse(try await fetcher.fetch(account, limit: 8 << 20, deadline: .seconds(30)).bytes, link: nil)
        #expect(!page.posts.isEmpty && page.posts.allSatisfy { $0.region.lowercased().filter(\.isLetter) == "meadow" })
        #expect(throws: FetchError.self) { try FeedAddressResolver.timelineURL(for: try FeedAddress.parse("@nobody@127.0.0.1:\(feed.port)"), fetcher: fetcher) }
        let tag = try FeedAddressResolver.timelineURL(for: try FeedAddress.parse("#grass@127.0.0.1:\(feed.port)"), fetcher: fetcher)
        let first = try await fetcher.fetch(tag + "&limit=5", limit: 8 << 20, deadline: .seconds(30))
        let tagged = try TimelinePage.parse(first.bytes, link: first.headers.first { $0.0.lowercased() == "link" }?.1)
        #expect(tagged.posts.count == 5 && tagged.posts.allSatisfy { $0.title.lowercased().contains("grass") })
        #expect(tagged.next?.contains("only_media=true") == true && tagged.next?.contains("max_id=") == true, "the next page keeps the query")
        fetcher.shutdown()
        await feed.stop()
    }
}

/// The image store's side of a ``ImageLoader``, played by the test: requests go in,
/// a "frame" is a `postDueCompletions()`, a `startQueuedWork()` and a drain of the inbox.
final class LoaderDriver: @unchecked Sendable {
    let loader: ImageLoader
    private(set) var results: [Result<CellImage, ImageError>] = []
    private var next = 0

    init(fetcher: HTTPFetcher, policy: TransferPolicy = TransferPolicy()) {
        let origin = ContinuousClock.now
        loader = ImageLoader(source: fetcher, policy: policy, workers: 1, priority: .normal, colorMode: .palette240,
                                    now: { ContinuousClock.now - origin })
    }

    var network: NetworkLoadCounters { loader.networkCounters }

    @discardableResult
    func load(_ url: String, columns: Int, priority: Int = 0) -> Cancellable {
        let cancellation = Cancellable(priority: priority)
        // The loader refuses a request while a transfer holds its lock (the store would hand it over again).
        while !loader.load(PreparedImageKey(asset: AssetID(path: url), columns: columns, rows: 4), request: next, priority: priority, cancellation: cancellation) {}
        next += 1
        return cancellation
    }

    /// One frame, as the app runs it with an empty commit: cancellations and priorities read,
    /// what the queue allows started, finished requests taken.
    /// A look that found the loader's lock taken by a transfer's thread is the next frame's
    /// in the app; here the frame is run again at once, so that one call is one whole look.
    func frame() {
        for _ in 0..<10_000 {
            loader.postDueCompletions()
            loader.startQueuedWork()
            if !loader.hasDueCompletions { break }
        }
        results += loader.inbox.drain().map(\.result)
    }


    /// Frames until `condition` holds (bounded: a hang fails the test, never a slow machine).
    func frames(until condition: () -> Bool, timeout: Duration = .seconds(60)) async throws {
        let end = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < end else { throw TestFailure("the condition never held") }
            frame()
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func waitForResults(_ count: Int, timeout: Duration = .seconds(60)) async throws -> [Result<CellImage, ImageError>] {
        let end = ContinuousClock.now + timeout
        while results.count < count {
            guard ContinuousClock.now < end else { throw TestFailure("\(results.count) of \(count) results arrived") }
            frame()
            try await Task.sleep(for: .milliseconds(5))
        }
        return results
    }
}

func temporaryFolder() -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-test-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

enum BundledPhotos {
    /// The file post `index` of the bundled catalogue shows.
    static func original(_ index: Int) -> String {
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets")
        struct Catalogue: Decodable {
            struct Post: Decodable { let assetID: String }
            let posts: [Post]
        }
        let catalogue = try! JSONDecoder().decode(Catalogue.self, from: Data(contentsOf: assets.appendingPathComponent("catalog.json")))
        let id = catalogue.posts[index % catalogue.posts.count].assetID
        return ["jpg", "jpeg", "png"].map { assets.appendingPathComponent("photos/\(id).\($0)").path }.first(where: FileManager.default.fileExists(atPath:))!
    }
}

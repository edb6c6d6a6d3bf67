import CoreKit
import FeedFormat
import Foundation

/// A page of a feed as the main thread receives it: parsed, its BlurHashes decoded, all
/// off the main thread.
public struct FeedPageArrival: Sendable {
    public var page: TimelinePage
    /// Each post's placeholder colours (`FeedPager.placeholderSize`), where its hash was valid.
    public var placeholders: [String: Blurhash.Grid]
    /// From the request to the parsed page.
    public var latency: Duration
    public var bodyBytes: Int
    /// The server could not be reached and the disk cache's copy of the page came instead:
    /// when that copy was fetched, seconds since 1970 (nil: from the network, or fresh).
    public var offlineSince: Int64? = nil
    /// When the server last said the page is current (a kept copy's response time), seconds
    /// since 1970; nil for a page that just came from the server.
    public var fetchedAt: Int64? = nil
}

/// What the pager posts to the frame loop.
public enum FeedPagerEvent: Sendable {
    case arrived(FeedPageArrival)
    /// The page failed and will be asked again after `retryIn` (nil: not worth asking again).
    case failed(FetchError, retryIn: Duration?)
}

/// The pages of a feed, in the feed's dialect (`FeedDialect`, FeedFormat: for Mastodon the
/// first `GET URL?limit=40`, then each `Link rel="next"`).
///
/// Paging is data prefetch: the frame loop calls ``loadMore()`` when fewer than two screens
/// of posts remain below the viewport (or the person presses `G`); one request at a time,
/// for the one cursor there is. The request, the parse and the BlurHash decoding run on a
/// task, below the frame loop; the result is posted to ``events`` and applied by the data
/// source in a later frame. A failed page is asked again after 1, 2, 4 … 30 s (a 4xx that
/// is not 408/429 is not: the header says why and `G` tries again).
public final class FeedPager: Sendable {
    /// The largest page body read (80 statuses of Mastodon are about 400 KB).
    public static let pageLimit = 8 << 20
    public static let pageDeadline: Duration = .seconds(30)
    /// Tries of the first page before the start reports its failure.
    public static let firstPageAttempts = 3
    /// The longest the start waits for the first page, tries included: a server that
    /// trickles a byte a second left a blank terminal for 92 s (issue 43).
    public static let firstPageBound: Duration = .seconds(20)
    /// Placeholder colours per post: enough for a thumbnail of a few cells.
    public static let placeholderSize = (width: 8, height: 6)

    public let events: Mailbox<FeedPagerEvent>
    /// What the server's pages look like.
    public let dialect: any FeedDialect
    /// The first page's URL (the feed's, as the dialect asks for it).
    public let firstPageURL: String
    private let fetcher: HTTPFetcher
    private let state: Lock<State>

    struct State: Sendable {
        var next: String?
        var loading = false
        var ended = false
        var attempt = 0
        var pages = 0
        var task: Task<Void, Never>?
        /// Every page asked for: a `next` that names one of them ends paging (a server whose
        /// `Link` points back would otherwise be paged for ever; issue 43).
        var seen: Set<String> = []
        /// The last page was refused in a way that asking again will not change (a 401, a
        /// 404, a body too large): nothing more is asked until the person asks
        /// (``askAgain()``). Before, the frame loop's next call asked again at once: 60
        /// requests a second to a server that said no (issue 43).
        var heldUntilAsked = false
    }

    /// A pager of the feed at `url`, in `dialect` (by default the one that recognises it).
    public init(url: String, fetcher: HTTPFetcher, wake: WakeSignal?, dialect: (any FeedDialect)? = nil) {
        self.fetcher = fetcher
        let dialect = dialect ?? FeedDialects.forFeed(url)
        self.dialect = dialect
        firstPageURL = dialect.firstPage(of: url)
        events = Mailbox(wake: wake)
        state = Lock(State(next: firstPageURL))
    }

    /// Pages received so far.
    public var pages: Int { state.withLock { $0.pages } }
    /// True while a page is being fetched (or waits for its retry).
    public var isLoading: Bool { state.withLock { $0.loading } }
    /// True after a page without a next link.
    public var hasEnded: Bool { state.withLock { $0.ended } }
    /// True after a refusal, until the person asks again.
    public var isHeld: Bool { state.withLock { $0.heldUntilAsked } }

    /// The person asked for more (`G`): a page refused for good may be asked once more.
    /// (A page waiting out a failure that may pass keeps its backoff: pressing `G` again and
    /// again does not ask a failing server sooner.)
    public func askAgain() {
        state.withLock {
            guard $0.heldUntilAsked else { return }
            $0.heldUntilAsked = false
            $0.attempt = 0
        }
    }

    /// Asks for the next page unless one is under way or the feed has ended; returns
    /// whether a request started. Never waits.
    @discardableResult
    public func loadMore() -> Bool {
        let url: String? = state.withLock { state in
            guard !state.loading, !state.ended, !state.heldUntilAsked, let next = state.next else { return nil }
            state.loading = true
            return next
        }
        guard let url else { return false }
        let task = Task.detached(priority: .low) { [self] in
            BatchScheduling.enterOnCurrentThread()  // woken from the frame loop: never preempt it
            await fetchPage(url)
        }
        state.withLock { $0.task = task }
        return true
    }

    /// Stops the request under way (the app is quitting).
    public func stop() {
        state.withLock { $0.task }?.cancel()
    }

    /// Fetches the first page on the calling thread, for the start: the grid has nothing
    /// to show before it, and a wrong URL is reported before the terminal is touched.
    /// `whileWaiting` is called about ten times a second with the time waited so far (the
    /// app shows it, and reads the keys that end the wait); false cancels the request
    /// (``FetchError/cancelled``). Past `bound` it is cancelled too, as a time-out.
    public func loadFirstPage(bound: Duration = FeedPager.firstPageBound,
                              whileWaiting: (Duration) -> Bool = { _ in true }) throws(FetchError) -> FeedPageArrival {
        let url = state.withLock { state -> String? in
            state.loading = true
            return state.next
        }
        guard let url else { throw .badURL("") }
        let fetcher = fetcher, dialect = dialect
        do throws(FetchError) {
            let arrival = try BlockingFetch.run(bound: bound, tooSlow: .tooSlow(host: URL(string: url)?.host ?? url, bound: bound),
                                                whileWaiting: whileWaiting) { () async throws(FetchError) -> FeedPageArrival in
                // A failure that may pass (a 500, a dropped connection) is asked again twice,
                // after 0.5 and 1 s, before the start gives up.
                var attempt = 1
                while true {
                    do throws(FetchError) {
                        return try await Self.page(url, fetcher: fetcher, dialect: dialect)
                    } catch {
                        guard error.isTransient, attempt < Self.firstPageAttempts, !Task.isCancelled else { throw error }
                        // A server's Retry-After stands (the bound ends a wait past it).
                        try? await Task.sleep(for: max(.milliseconds(500 << (attempt - 1)), error.retryAfter ?? .zero))
                        attempt += 1
                    }
                }
            }
            accept(arrival, from: url)
            return arrival
        } catch {
            state.withLock { $0.loading = false }
            throw error
        }
    }

    private func accept(_ arrival: FeedPageArrival, from url: String) {
        state.withLock { state in
            state.loading = false
            state.attempt = 0
            state.pages += 1
            state.seen.insert(url)
            let next = arrival.page.next.flatMap { state.seen.contains($0) ? nil : $0 }
            state.next = next
            state.ended = next == nil
        }
    }

    private func fetchPage(_ url: String) async {
        while !Task.isCancelled {
            do throws(FetchError) {
                let arrival = try await Self.page(url, fetcher: fetcher, dialect: dialect)
                accept(arrival, from: url)
                events.post(.arrived(arrival))
                return
            } catch {
                if case .cancelled = error { return }
                let attempt = state.withLock { state in
                    state.attempt += 1
                    return state.attempt
                }
                guard error.isTransient else {
                    state.withLock {
                        $0.loading = false
                        $0.heldUntilAsked = true
                    }
                    events.post(.failed(error, retryIn: nil))
                    return
                }
                // The one retry policy, jittered; the server's Retry-After over it when longer.
                let delay = RetryPolicy.pages.delay(afterFailures: attempt, serverAsked: error.retryAfter)
                events.post(.failed(error, retryIn: delay))
                try? await Task.sleep(for: delay)
            }
        }
        state.withLock { $0.loading = false }
    }

    /// 1, 2, 4, 8, 16, 30, 30 … seconds: ``RetryPolicy/pages`` without its jitter (the
    /// offline probes' schedule).
    public static func backoff(attempt: Int) -> Duration {
        RetryPolicy.pages.ceiling(afterFailures: attempt)
    }

    static func page(_ url: String, fetcher: HTTPFetcher, dialect: any FeedDialect) async throws(FetchError) -> FeedPageArrival {
        let started = ContinuousClock.now
        let body = try await fetcher.fetchCached(url, headers: dialect.pageHeaders, limit: pageLimit, deadline: pageDeadline,
                                                 authorized: true, offline: true)
        var page: TimelinePage
        do { page = try dialect.parsePage(body.bytes, link: body.header("Link")) } catch { throw .notATimeline(error) }
        // A relative target is resolved against the response's own URL, after redirects (RFC
        // 8288 § 3.2; RFC 3986 § 5); one that is not http(s) then ends paging.
        page.next = page.next.flatMap { WebTarget.resolve($0, against: body.url) }
        var placeholders: [String: Blurhash.Grid] = [:]
        for post in page.posts {
            if let hash = post.blurhash, let grid = Blurhash.decode(hash, width: placeholderSize.width, height: placeholderSize.height) {
                placeholders[post.thumbnailURL] = grid
            }
        }
        return FeedPageArrival(page: page, placeholders: placeholders, latency: ContinuousClock.now - started, bodyBytes: body.bytes.count,
                               offlineSince: body.offlineSince, fetchedAt: body.fetchedAt)
    }
}

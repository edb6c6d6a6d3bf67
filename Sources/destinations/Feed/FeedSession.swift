import CoreKit
import DestinationsModel
import FeedClient
import SavedState
import FeedFormat
import Foundation
import HTTPCache
import ImagePipeline
import TerminalFront

/// A feed being browsed (`--feed URL`): the HTTP client, the pager, the photo source the
/// image workers fetch through, and what the header and the report say of them.
///
/// Made before the terminal is touched: the first page is fetched on the calling thread, so
/// a wrong URL, an unreachable host or a server that is not a timeline is one line and exit
/// status 1, with the terminal as it was.
final class FeedSession {
    let url: String
    let fetcher: HTTPFetcher
    let pager: FeedPager
    /// The image store's loader, made once the grid knows how it draws images.
    private(set) var loader: ImageLoader?
    /// The loader's clock: monotonic time since the session began.
    private let origin = ContinuousClock.now
    /// The first page, parsed, until the grid takes it.
    private(set) var firstPage: FeedPageArrival?
    /// Statuses skipped (no picture, too malformed) and hidden by the person's filters, over all pages.
    private(set) var skipped = (statuses: 0, filtered: 0)
    /// The last failure and when it will be retried, for the header; cleared by a page.
    private(set) var problem: (error: FetchError, retryAt: Duration?)?
    /// When the page under way was asked for (nil: none is); the header counts the wait.
    private(set) var loadingSince: Duration?
    /// Failed pages so far (each one changes the header).
    private(set) var failures = 0
    /// Each page's time from request to parsed page, in ms.
    private(set) var pageLatencies: [Double] = []
    /// Whether the feed is shown from kept copies, and the probes that find the network again.
    private var offline = OfflineProbe()
    /// The server could not be reached and the last page came from the disk cache: when
    /// that copy was fetched (seconds since 1970). Cleared by a page from the network.
    var offlineSince: Int64? { offline.since }

    /// `showsWait`: in a terminal, the wait for the first page is a status line that `q`
    /// ends (``StartupWait``).
    /// `feed`: what the person typed after `--feed` (a server, `@user@server`,
    /// `#tag@server`, `home@server` or a timeline's URL: ``FeedAddress``).
    init(feed: String, token: String?, allowHTTPToken: Bool = false, trust: String?, wake: WakeSignal?, cache: DiskCache? = nil,
         showsWait: Bool = false) throws {
        let address: FeedAddress
        do { address = try FeedAddress.parse(feed) } catch { throw AppError(description: "\(error)", status: 2) }
        // The token is for the server the address names (an account's lookup goes there too).
        let server: String = switch address {
        case .timeline(let url): url
        case .account: address.accountLookupURL ?? feed
        }
        // No token given: the one `destinations login` kept for this server, if any.
        let token = try token ?? Self.keptToken(for: server)
        let credential: Credential?
        do { credential = try token.map { token throws(Credential.Refusal) in try Credential(token: token, for: server, allowCleartext: allowHTTPToken) } } catch {
            throw AppError(description: "\(PlainText.clean(server)): \(error)", status: 2)
        }
        do {
            fetcher = try HTTPFetcher(credential: credential, userAgent: "destinations/\(Version.current)", trust: trust, cache: cache)
        } catch {
            throw AppError(description: "\(error)", status: 1)
        }
        do {
            url = try FeedAddressResolver.timelineURL(for: address, fetcher: fetcher)
        } catch {
            fetcher.shutdown()
            throw AppError(description: "\(PlainText.clean(feed)): \(error)", status: 1)
        }
        pager = FeedPager(url: url, fetcher: fetcher, wake: wake)
        do {
            let wait = showsWait ? StartupWait() : nil
            defer { wait?.end() }
            let host = PlainText.clean(URL(string: url)?.host ?? url)
            let first = try pager.loadFirstPage { waited in
                // Said only once the wait is long enough to notice.
                guard let wait, waited >= .milliseconds(500) else { return true }
                let seconds = Int(waited / .seconds(1))
                return wait.poll(status: "destinations: waiting for the first page from \(host)… \(seconds) s (q quits)")
            }
            firstPage = first
            skipped = (first.page.skipped, first.page.filteredOut)
            pageLatencies.append(first.latency.milliseconds)
            offline.since = first.offlineSince
        } catch {
            end()
            switch error {
            case .cancelled: throw AppError(description: "quit before the first page came", status: 0)
            default: throw AppError(description: "\(PlainText.clean(url)): \(error)", status: 1)
            }
        }
    }

    /// The token `destinations login` kept for `url`'s server (``AccountStore``), if any.
    static func keptToken(for url: String) throws(AppError) -> String? {
        guard let components = URLComponents(string: url), let host = components.host, let scheme = components.scheme else { return nil }
        let base = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
        let store = AccountStore(folder: AccountStore.defaultFolder(environment: ProcessInfo.processInfo.environment))
        do { return try store.account(forServer: base)?.token } catch { throw AppError(description: "\(error)", status: 2) }
    }

    /// The catalogue of the first page (posts are added as pages arrive); `showsSensitive`:
    /// warned posts start as they are (the model starts the same way).
    func firstCatalogue(showsSensitive: Bool = false) -> Catalogue {
        var catalogue = Catalogue(feedNamed: URL(string: url)?.host ?? "feed", showsSensitive: showsSensitive)
        if let firstPage { catalogue.appendFeedPosts(firstPage.page.posts) }
        return catalogue
    }

    /// The first page's placeholders, once (the grid adds them to its store).
    func takeFirstPage() -> FeedPageArrival? {
        defer { firstPage = nil }
        return firstPage
    }

    /// What happened since the last frame: the pages that arrived (their failures are
    /// kept for the header).
    func takeArrivals(now: Duration) -> [FeedPageArrival] {
        var arrivals: [FeedPageArrival] = []
        for event in pager.events.drainIfAvailable() ?? [] {
            switch event {
            case .arrived(let arrival):
                arrivals.append(arrival)
                skipped.statuses += arrival.page.skipped
                skipped.filtered += arrival.page.filteredOut
                pageLatencies.append(arrival.latency.milliseconds)
                problem = nil
                loadingSince = nil
                offline.since = arrival.offlineSince
            case .failed(let error, let retryIn):
                problem = (error, retryIn.map { now + $0 })
                loadingSince = nil
                failures += 1
            }
        }
        return arrivals
    }

    /// While the feed is shown from kept copies: asks the server again now and then; returns
    /// true once when it answered (the network is back: the caller asks again for what was
    /// unavailable). Never waits.
    func probeIfOffline(now: Duration) -> Bool {
        let probe = offline.next(now: now)
        if probe == .reached { problem = nil }
        guard probe == .ask else { return probe == .reached }
        let fetcher = fetcher, url = pager.firstPageURL, headers = pager.dialect.pageHeaders, answers = offline.answers
        Task.detached(priority: .low) {
            let body = try? await fetcher.fetchCached(url, headers: headers, limit: FeedPager.pageLimit,
                                                      deadline: .seconds(10), authorized: true, offline: true)
            answers.post(body != nil && body?.offlineSince == nil)
        }
        return false
    }

    /// The person pressed `G`: a page refused for good is asked once more (by the person,
    /// never by the frame loop; paging on to the end is the model's to decide).
    func askAgain() { pager.askAgain() }

    /// Asks for the next page when fewer than two screens remain below the viewport, or
    /// `toTheEnd` (the person asked for the end); never while a page is under way. Returns
    /// true when the feed has no more pages.
    func pageIfNeeded(rowsBelow: Int, screenRows: Int, toTheEnd: Bool, now: Duration) -> Bool {
        guard !pager.hasEnded else { return true }
        if toTheEnd || rowsBelow < 2 * max(1, screenRows), pager.loadMore() { loadingSince = now }
        return false
    }

    /// The first instant after `now` at which the header's feed words change with nothing
    /// else happening (a retry's countdown, a slow page's wait); nil when they will not.
    func nextStatusChange(after now: Duration) -> Duration? {
        guard offlineSince == nil else { return nil }
        if let problem { return problem.retryAt.flatMap { FeedWaitWords.nextChange(retryAt: $0, loadingSince: nil, now: now) } }
        return pager.isLoading ? FeedWaitWords.nextChange(retryAt: nil, loadingSince: loadingSince, now: now) : nil
    }

    /// `24 Nov 16:31 UTC`: when an offline copy was fetched.
    static func shortDate(_ seconds: Int64) -> String {
        let parts = HTTPDate.format(seconds).split(separator: " ")  // Tue, 24 Nov 2026 16:31:05 GMT
        return parts.count == 6 ? "\(parts[1]) \(parts[2]) \(parts[4].prefix(5)) UTC" : HTTPDate.format(seconds)
    }

    /// The header's words for the feed: posts and pages, and what it is doing.
    func status(posts: Int, now: Duration) -> String {
        let pages = pager.pages
        if let since = offlineSince {
            // The words the issue asks for: what is shown, and how old it is.
            return "offline — \(posts) cached posts from \(Self.shortDate(since))" + (problem.map { " · \($0.error)" } ?? "")
        }
        var text = "\(posts) posts · \(pages) page\(pages == 1 ? "" : "s")"
        let notShown = [skipped.statuses > 0 ? "\(skipped.statuses) without a picture" : nil,
                        skipped.filtered > 0 ? "\(skipped.filtered) filtered out" : nil].compactMap { $0 }
        if !notShown.isEmpty { text += " (" + notShown.joined(separator: ", ") + ")" }
        if let problem {
            // When it is tried again first: a server's message can be long enough to be cut off.
            text += " · " + (problem.retryAt.map { FeedWaitWords.retry(at: $0, now: now) + " — " } ?? "") + "\(problem.error)"
        } else if pager.isLoading {
            text += FeedWaitWords.loading(since: loadingSince, now: now)
        } else if pager.hasEnded {
            text += " · the end"
        }
        return text
    }

    /// The loader the image store fetches photos through (the pipeline's policies over this
    /// session's HTTP client).
    func makeLoader(workers: Int, priority: WorkerPriority, wake: WakeSignal, colorMode: CellColorMode, output: ImageOutput) -> ImageLoader {
        let origin = self.origin
        let made = ImageLoader(source: fetcher, workers: workers, priority: priority, wake: wake, colorMode: colorMode, output: output,
                                      now: { ContinuousClock.now - origin })
        loader = made
        return made
    }

    /// Stops the page under way and closes the connections (transfers under way end).
    func end() {
        pager.stop()
        fetcher.shutdown()
    }
}

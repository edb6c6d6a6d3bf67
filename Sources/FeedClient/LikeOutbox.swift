import CoreKit
import FeedFormat
import Foundation
import SavedState

/// What the outbox tells the frame loop.
public enum LikeOutboxEvent: Sendable {
    /// The server took the like.
    case sent(StateStore.OutboxEntry)
    /// The send failed in a way that may pass (no network, a 5xx): it is tried again after
    /// `retryIn`, the entry staying first in line.
    case waiting(StateStore.OutboxEntry, FetchError, retryIn: Duration)
    /// The server refused the like for good (a 4xx): it left the outbox; `likedNow` is the like as it went back to (nil: a later
    /// word of the person's on the same post stands).
    case rolledBack(StateStore.OutboxEntry, FetchError, likedNow: Bool?)
}

/// Sends the likes of a feed's outbox to its server, one at a time, oldest first, each as
/// the feed's dialect asks (Mastodon's: `POST …/api/v1/statuses/:id/favourite` or
/// `/unfavourite`, `FeedDialect`), with the entry's
/// `Idempotency-Key` — the key made when the person pressed `L`, so a send repeated after a
/// lost answer or a kill is not acted on twice.
///
/// A failure that may pass keeps the entry first and tries again after 1, 2, 4 … 30 s, for as
/// long as it takes: no network, a time-out, a 5xx. A 5xx is never rolled back: the server
/// may have taken the like before it failed (the answer is what was lost), and only the
/// same key sent again tells it apart without acting twice. A refusal (a 4xx other than
/// 408 and 429) rolls the like back, and so do a redirect (a POST is never followed
/// elsewhere) and a 2xx whose body is not the status liked as asked. Runs on a task below the frame loop; the main thread
/// hands it nothing but a ``wake()``.
public final class LikeOutbox: Sendable {
    public static let sendDeadline: Duration = .seconds(15)

    public let events: Mailbox<LikeOutboxEvent>
    private let store: StateStore
    private let fetcher: HTTPFetcher
    private let scope: String
    private let dialect: any FeedDialect
    private let backoff: @Sendable (Int) -> Duration
    private let state = Lock<State>(State())

    struct State: Sendable {
        var task: Task<Void, Never>?
        var continuation: AsyncStream<Void>.Continuation?
        var sent = 0
        var rolledBack = 0
        /// An entry taken from the outbox whose outcome is not yet counted and posted.
        var handling = false
    }

    /// An outbox for the feed at `feedURL` (its scope in `store`), in `dialect` (by default
    /// the one that recognises it). `backoff`: the wait before try *n* + 1 (tests shorten it).
    public init(feedURL: String, store: StateStore, fetcher: HTTPFetcher, wake: WakeSignal?, dialect: (any FeedDialect)? = nil,
                backoff: @escaping @Sendable (Int) -> Duration = { RetryPolicy.pages.delay(afterFailures: $0) }) {
        self.store = store
        self.fetcher = fetcher
        scope = feedURL
        self.dialect = dialect ?? FeedDialects.forFeed(feedURL)
        self.backoff = backoff
        events = Mailbox(wake: wake)
    }

    /// Likes the server took, and likes rolled back, since the start.
    public var sent: Int { state.withLock { $0.sent } }
    public var rolledBack: Int { state.withLock { $0.rolledBack } }

    /// Starts sending what the outbox holds (entries of earlier runs first). Never waits.
    public func start() {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task.detached(priority: .low) { [self] in await run(woken: stream) }
        state.withLock {
            $0.task = task
            $0.continuation = continuation
        }
        continuation.yield()
    }

    /// A new entry was written: send it when those before it are sent.
    public func wake() { _ = state.withLock { $0.continuation }?.yield() }

    /// Stops sending (the app is quitting): what is left stays in the outbox for next time.
    public func stop() {
        let (task, continuation) = state.withLock { ($0.task, $0.continuation) }
        continuation?.finish()
        task?.cancel()
    }

    /// Waits until the outbox is empty and the last entry's outcome is counted and posted,
    /// or `timeout` passes (a test, a benchmark); returns whether it emptied. (A rolled-back
    /// entry leaves the outbox before its event is posted: the outbox alone said "empty"
    /// while the event was still to come.)
    public func drain(timeout: Duration) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if isEmpty { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return isEmpty
    }

    private var isEmpty: Bool { !state.withLock { $0.handling } && store.first(in: scope) == nil }

    private func run(woken: AsyncStream<Void>) async {
        var wakeups = woken.makeAsyncIterator()
        while !Task.isCancelled {
            state.withLock { $0.handling = true }
            guard let entry = store.first(in: scope) else {
                state.withLock { $0.handling = false }
                guard await wakeups.next() != nil else { return }
                continue
            }
            defer { state.withLock { $0.handling = false } }
            do throws(FetchError) {
                try await send(entry)
                try? store.sent(entry)
                state.withLock { $0.sent += 1 }
                events.post(.sent(entry))
            } catch {
                if case .cancelled = error { return }
                if error.isTransient {
                    let attempts = (try? store.failed(entry, reason: error.description)) ?? entry.attempts + 1
                    let delay = max(backoff(attempts), error.retryAfter ?? .zero)
                    events.post(.waiting(entry, error, retryIn: delay))
                    try? await Task.sleep(for: delay)
                    continue
                }
                let likedNow = (try? store.rollBack(entry)) ?? nil
                state.withLock { $0.rolledBack += 1 }
                events.post(.rolledBack(entry, error, likedNow: likedNow))
            }
        }
    }

    private func send(_ entry: StateStore.OutboxEntry) async throws(FetchError) {
        guard let request = dialect.likeRequest(statusID: entry.post, liked: entry.favourite, feedURL: scope) else { throw .badURL(entry.post) }
        let answer = try await fetcher.fetch(request.url, method: request.method == "GET" ? .get : .post, headers: [("Idempotency-Key", entry.idempotencyKey), ("Accept", "application/json")],
                                             limit: 1 << 20, deadline: Self.sendDeadline, authorized: true, failFast: true)
        // Sent means the server answered with the status, liked or not as asked: a 200 with
        // anything else (a web page, garbage, the other state) is not a like taken (issue 43).
        guard dialect.likeAnswer(answer.bytes) == entry.favourite else {
            throw .unexpectedAnswer(entry.favourite ? "the status, favourited" : "the status, not favourited")
        }
    }
}

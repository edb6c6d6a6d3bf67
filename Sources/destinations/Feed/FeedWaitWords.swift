import CoreKit

/// What the header says while a feed's page is awaited, and when those words change by
/// themselves.
///
/// A page can take long with nothing else moving: a retry's backoff (1, 2, 4 … 30 s), or a
/// server that sent its headers and then nothing (up to the client's 15 s read time-out).
/// The grid draws only when something changes (`GridLoop+Quiet`), so a countdown that is
/// not scheduled would stand still ("retry in 16 s" for 16 s). These words tick once a
/// second, and only while a page is awaited: an idle feed still wakes for nothing.
enum FeedWaitWords {
    /// A page on its way this long or longer shows how long it has waited.
    static let slowPageAfter: Duration = .seconds(3)

    /// " · loading more…", with the seconds waited once the page is slow.
    static func loading(since start: Duration?, now: Duration) -> String {
        " · loading more…" + waited(since: start, now: now)
    }

    /// "retry in 3 s" before `retryAt`; "retrying…" (and how long, once slow) after. The
    /// header puts it before the failure's words, which can be long enough to be cut off.
    static func retry(at retryAt: Duration, now: Duration) -> String {
        now < retryAt ? "retry in \(wholeSeconds(retryAt - now, roundingUp: true)) s" : "retrying…" + waited(since: retryAt, now: now)
    }

    /// The next instant after `now` at which ``loading(since:now:)`` or
    /// ``retry(at:now:)`` read differently; nil when no page is awaited.
    /// `retryAt`: the failed page's retry, if it failed; `loadingSince`: when it was asked.
    static func nextChange(retryAt: Duration?, loadingSince: Duration?, now: Duration) -> Duration? {
        if let retryAt, now < retryAt {
            // "retry in N s" turns to N-1 when N-1 whole seconds are left.
            return retryAt - .seconds(wholeSeconds(retryAt - now, roundingUp: true) - 1)
        }
        guard let start = retryAt ?? loadingSince else { return nil }
        let elapsed = now - start
        if elapsed < slowPageAfter { return start + slowPageAfter }
        return start + .seconds(wholeSeconds(elapsed, roundingUp: false) + 1)
    }

    private static func waited(since start: Duration?, now: Duration) -> String {
        guard let start, now - start >= slowPageAfter else { return "" }
        return " \(wholeSeconds(now - start, roundingUp: false)) s"
    }

    private static func wholeSeconds(_ duration: Duration, roundingUp: Bool) -> Int64 {
        let nanoseconds = duration.nanoseconds, second: Int64 = 1_000_000_000
        return roundingUp ? (nanoseconds + second - 1) / second : nanoseconds / second
    }
}

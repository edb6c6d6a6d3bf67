import CoreKit
import FeedClient

/// While a feed is shown from kept copies, the network is asked again (the first page,
/// through the cache) 2, 4, 8 … 30 s apart; a probe under way posts to ``answers`` when it
/// gets through. The schedule only: the session sends the probe.
struct OfflineProbe {
    /// When the copy shown was fetched (seconds since 1970); nil: online.
    var since: Int64?
    /// Where a probe under way posts whether it reached the server.
    let answers = Mailbox<Bool>()
    private var nextAt: Duration?
    private var sent = 0
    private var underWay = false

    /// What to do at `now`.
    enum Step: Equatable {
        /// Nothing (online, a probe under way, or not yet time).
        case wait
        /// Send a probe now.
        case ask
        /// A probe got through: the network is back.
        case reached
    }

    mutating func next(now: Duration) -> Step {
        if let replies = answers.drainIfAvailable(), let reached = replies.last {
            underWay = false
            if reached {
                since = nil
                nextAt = nil
                sent = 0
                return .reached
            }
        }
        guard since != nil, !underWay else { return .wait }
        guard let at = nextAt else {
            nextAt = now + FeedPager.backoff(attempt: 2)
            return .wait
        }
        guard now >= at else { return .wait }
        underWay = true
        sent += 1
        nextAt = now + FeedPager.backoff(attempt: sent + 2)
        return .ask
    }
}

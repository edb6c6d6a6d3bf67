import CoreKit
import Dispatch
import FeedClient
import SavedState

/// The person's lasting state as the grid uses it (D-051): the likes saved in this scope,
/// the outbox that carries a feed's likes to its server, and the place to come back to.
///
/// Main thread only. Reads happen once, at the start; every write is handed, as a Sendable
/// value, to a serial queue of its own, so a frame never waits on SQLite. A like is written
/// there with its outbox entry in one transaction, then the outbox is woken: the entry is on
/// disk before anything is sent.
final class PersonalState {
    /// What the report's `outbox` counts, this run.
    struct Tally: Equatable {
        var queued = 0
        var sent = 0
        var rolledBack = 0
    }

    let store: StateStore
    /// Whose likes and place: a feed's URL, `bundled`, or `folder:<path>`.
    let scope: String
    /// With a feed: sends its likes (nil: likes only persist).
    let outbox: LikeOutbox?
    /// Where the person was when they last left this scope (nil: `--fresh`, or never here).
    let savedPlace: StateStore.Place?
    private(set) var tally = Tally()
    /// The person's last word on each post of the scope, kept up to date.
    private var words: [String: StateStore.Like]
    /// Likes of each post still in the outbox.
    private var unsent: [String: Int] = [:]
    /// For the header: the last rollback's words, or why likes wait, until the time given.
    private(set) var notice: (text: String, until: Duration)?
    /// Why the last send failed while likes wait (cleared by a send).
    private(set) var waitingReason: String?
    /// The place last handed to be kept, and when (``keepNow(_:at:)``).
    private var kept: (place: StateStore.Place?, at: Duration?)
    /// Writes that failed (a full disk): said in the header, never lost silently.
    private let writeFailures = Mailbox<String>()
    private let writer = DispatchQueue(label: "destinations.state", qos: .utility)
    /// Seconds since 1970, as the store counts them.
    var now: @Sendable () -> Int64 { store.now }

    init(store: StateStore, scope: String, fresh: Bool, outbox: LikeOutbox?) {
        self.store = store
        self.scope = scope
        self.outbox = outbox
        words = store.likes(in: scope)
        for entry in store.pending(in: scope) { unsent[entry.post, default: 0] += 1 }
        if fresh { store.forgetPlace(in: scope) }
        savedPlace = fresh ? nil : store.place(in: scope)
        kept = (savedPlace, nil)
        outbox?.start()
    }

    /// The saved word on every post of the scope (without a feed, all of them stand).
    var savedLikes: [String: Bool] { words.mapValues(\.liked) }

    /// Likes waiting to be sent.
    var unsentCount: Int { unsent.values.reduce(0, +) }

    /// The person's word on `post` that stands over a page fetched at `fetchedAt` (seconds
    /// since 1970; nil: just now, from the server): a like still in the outbox always, a
    /// sent one only over an older copy of the page (the server's answer is newer than a
    /// like it has taken). Without a feed, every saved word stands.
    func word(on post: String, pageFetchedAt fetchedAt: Int64?) -> Bool? {
        guard let word = words[post] else { return nil }
        guard outbox != nil else { return word.liked }
        if unsent[post, default: 0] > 0 { return word.liked }
        if let fetchedAt, word.changedAt >= fetchedAt { return word.liked }
        return nil
    }

    /// The person pressed `L`: keep it, and send it when there is a server.
    func record(_ liked: Bool, post: String, title: String) {
        words[post] = StateStore.Like(liked: liked, changedAt: now())
        if outbox != nil {
            unsent[post, default: 0] += 1
            tally.queued += 1
        }
        let store = store, scope = scope, outbox = outbox, failures = writeFailures
        writer.async {
            do {
                try store.setLiked(liked, post: post, title: title, in: scope, send: outbox != nil)
                outbox?.wake()
            } catch {
                failures.post("\(error)")
            }
        }
    }

    /// Keeps where the person is, when it changed (at most once a call; the app calls it
    /// about once a second and on the way out).
    func keep(_ place: StateStore.Place) {
        guard place != kept.place else { return }
        kept.place = place
        let store = store, scope = scope, failures = writeFailures
        writer.async {
            do { try store.savePlace(place, in: scope) } catch { failures.post("\(error)") }
        }
    }

    /// Keeps a choice the person made that holds for every scope (`X`: warned posts shown).
    func keep(_ value: Bool, for setting: StateStore.Setting) {
        let store = store, failures = writeFailures
        writer.async {
            do { try store.keep(value, for: setting) } catch { failures.post("\(error)") }
        }
    }

    /// Keeps the place about once a second while the person browses (a kill loses at most a
    /// second of it).
    func keepNow(_ place: StateStore.Place, at time: Duration) {
        if time - (kept.at ?? .zero) < .seconds(1) { return }
        kept.at = time
        keep(place)
    }

    /// What the outbox did since the last frame: whether anything (the header changes),
    /// and the likes that went back (post, liked now) for the grid to show.
    func takeEvents(at time: Duration) -> (changed: Bool, back: [(post: String, liked: Bool)]) {
        var changed = false
        if let failure = writeFailures.drainIfAvailable()?.last {
            notice = (failure, time + .seconds(10))
            changed = true
        }
        guard let events = outbox?.events.drainIfAvailable(), !events.isEmpty else { return (changed, []) }
        var back: [(post: String, liked: Bool)] = []
        for event in events {
            switch event {
            case .sent(let entry):
                unsent[entry.post, default: 1] -= 1
                tally.sent += 1
                waitingReason = nil
            case .waiting(_, let error, let retryIn):
                waitingReason = "\(error) — again in \(Int((retryIn / .seconds(1)).rounded(.up))) s"
            case .rolledBack(let entry, let error, let likedNow):
                unsent[entry.post, default: 1] -= 1
                tally.rolledBack += 1
                let verb = entry.favourite ? "like" : "unlike"
                notice = ("could not \(verb) “\(entry.title)”: \(error) — undone", time + .seconds(10))
                if let likedNow {
                    words[entry.post] = StateStore.Like(liked: likedNow, changedAt: now())
                    back.append((entry.post, likedNow))
                }
            }
        }
        return (true, back)
    }

    /// The header's words: a rollback's message for a while, or the likes still to send.
    func status(at time: Duration) -> String? {
        if let notice, notice.until > time { return notice.text }
        let count = unsentCount
        guard count > 0 else { return nil }
        return "\(count) like\(count == 1 ? "" : "s") to send" + (waitingReason.map { " (\($0))" } ?? "")
    }

    /// On the way out: the place is written and every write has landed; sending stops (what
    /// is left is sent at the next run).
    func finish(place: StateStore.Place?) {
        if let place { keep(place) }
        writer.sync {}
        _ = takeEvents(at: .zero)
        outbox?.stop()
    }
}

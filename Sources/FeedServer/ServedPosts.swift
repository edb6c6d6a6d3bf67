import CoreKit
import DestinationsModel
import FeedFormat
import Foundation
import ImagePipeline

/// The posts `destinations-feed` serves, as a Mastodon timeline: the bundled catalogue (or a
/// photo folder) scaled to `count` posts, newest first. Post *k* (0-based, the first shown)
/// is status `count - k`, so ids fall down the timeline as Mastodon's do and `max_id`
/// pages on. Favourites are the server's own state: the counts it reports are the truth the
/// app's likes must reach.
final class ServedPosts: Sendable {
    let catalogue: Catalogue
    let count: Int
    /// Favourites by post, and the idempotency keys already acted on; one lock, so an
    /// action and its key are one step (and one journal line).
    private let favourites = Lock<(byPost: [Int: Bool], answered: Set<String>)>(([:], []))
    /// `--state`: where they are kept across a kill (nil: in memory only).
    private let journal: FavouriteJournal?
    /// `--shapes`: plain statuses of one picture, or the shapes real servers send.
    let shapes: StatusShapes

    init(catalogue: Catalogue, count: Int, statePath: String? = nil, shapes: StatusShapes = .plain) throws {
        precondition(count > 0, "ServedPosts: count must be > 0")
        self.catalogue = catalogue
        self.count = count
        self.shapes = shapes
        if let statePath {
            let (journal, lines) = try FavouriteJournal.open(path: statePath)
            self.journal = journal
            favourites.withLock { state in
                for line in lines {
                    state.byPost[line.index] = line.favourite
                    if let key = line.key { state.answered.insert(key) }
                }
            }
        } else {
            journal = nil
        }
    }

    /// The 0-based index of status `id`, if it is one of ours (a boost's own id is not:
    /// ``boostedIndex(ofStatus:)``).
    func index(ofStatus id: String) -> Int? {
        guard let number = Int(id), number >= 1, number <= count else { return nil }
        return count - number
    }

    func statusID(ofIndex index: Int) -> Int { count - index }

    /// Mastodon's `max_id`, `limit` (1...80, default 40): the indices of the page and the
    /// `max_id` of the next one (nil on the last page).
    func page(maxID: String?, limit: Int?) -> (indices: Range<Int>, nextMaxID: Int?) {
        let size = max(1, min(80, limit ?? 40))
        var start = 0
        if let maxID, let number = Int(maxID) { start = max(0, min(count, count - number + 1)) }
        let end = min(count, start + size)
        return (start..<end, end < count ? statusID(ofIndex: end - 1) : nil)
    }

    /// The page of the posts `matching` says yes to, from `max_id` on: as ``page(maxID:limit:)``
    /// over those posts only (an account's statuses, a tag's timeline).
    func page(maxID: String?, limit: Int?, matching: (Int) -> Bool) -> (indices: [Int], nextMaxID: Int?) {
        let size = max(1, min(80, limit ?? 40))
        var start = 0
        if let maxID, let number = Int(maxID) { start = max(0, min(count, count - number + 1)) }
        var indices: [Int] = []
        var index = start
        while index < count && indices.count < size {
            if matching(index) { indices.append(index) }
            index += 1
        }
        let more = (index..<count).contains(where: matching)
        return (indices, more ? indices.last.map(statusID(ofIndex:)) : nil)
    }

    /// The account handle of post `index` (its region, as the status's `acct` says).
    func handle(ofIndex index: Int) -> String { catalogue.post(index).region.lowercased().filter { $0.isLetter || $0.isNumber } }

    /// Likes (`favourite` true) or unlikes status `index`; the same idempotency key twice
    /// changes nothing the second time. Returns whether it is favourited now.
    func setFavourite(_ favourite: Bool, index: Int, idempotencyKey: String?) -> (favourited: Bool, replayed: Bool) {
        favourites.withLock { state in
            if let key = idempotencyKey, state.answered.contains(key) { return (state.byPost[index] ?? false, true) }
            journal?.append(.init(key: idempotencyKey, index: index, favourite: favourite))
            if let key = idempotencyKey { state.answered.insert(key) }
            state.byPost[index] = favourite
            return (favourite, false)
        }
    }

    func isFavourited(_ index: Int) -> Bool { favourites.withLock { $0.byPost[index] ?? false } }

    /// Favourites a person made (status ids), for the tests of the outbox.
    var favouritedStatuses: [Int] {
        favourites.withLock { $0.byPost.filter(\.value).keys.map { count - $0 }.sorted() }
    }

    /// The status of post `index` as the timeline shows it, its media at `base`: plain, or
    /// with `--shapes fediverse` warned, filtered, a gallery, a GIF, a video or a boost.
    func status(index: Int, base: String, media: (Int) -> MediaFacts) -> StatusJSON {
        switch shapes {
        case .plain: plainStatus(index: index, base: base, media: media(index))
        case .fediverse: fediverseStatus(index: index, base: base, media: media)
        }
    }

    /// The status of post `index` as Mastodon's JSON, one picture, its media at `base` (scheme and host).
    func plainStatus(index: Int, base: String, media: MediaFacts) -> StatusJSON {
        let post = catalogue.post(index)
        let id = String(statusID(ofIndex: index))
        let favourited = isFavourited(index)
        let handle = handle(ofIndex: index)
        let attachment = AttachmentJSON(id: id, type: "image", url: "\(base)/media/original/\(index).jpg",
                                        preview_url: "\(base)/media/preview/\(index).jpg", description: post.title,
                                        blurhash: media.blurhash,
                                        meta: .init(original: .init(width: media.originalWidth, height: media.originalHeight),
                                                    small: .init(width: media.previewWidth, height: media.previewHeight)))
        return StatusJSON(id: id, created_at: Self.createdAt(statusID: statusID(ofIndex: index)), content: "<p>\(Self.escaped(post.title))</p>",
                          url: "\(base)/@\(handle)/\(id)", favourites_count: post.numberOfLikes + (favourited ? 1 : 0), favourited: favourited,
                          account: .init(id: handle, username: handle, acct: handle, display_name: post.region), media_attachments: [attachment])
    }

    /// A fixed, plausible time per status: a minute apart, newest last.
    static func createdAt(statusID: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(statusID) * 60)
        return date.formatted(.iso8601)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// What the server knows of a post's media without making its preview.
struct MediaFacts: Sendable {
    var blurhash: String?
    var originalWidth: Int
    var originalHeight: Int
    var previewWidth: Int
    var previewHeight: Int
}

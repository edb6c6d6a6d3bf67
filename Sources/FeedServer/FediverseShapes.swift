import Foundation

/// What the statuses `destinations-feed` serves look like.
public enum StatusShapes: String, Sendable, CaseIterable {
    /// One picture each, nothing hidden: what the benchmarks have always measured.
    case plain
    /// The shapes real servers send (issue 45), by post number: content warnings,
    /// sensitive media without a warning, the person's filters (warn and hide), galleries
    /// of 2 and 4 with and without alt text, GIFs (gifv), a video that is not a picture, and
    /// boosts — whose own id favourites the boosted status, while un-favouriting it finds
    /// nothing, as on Mastodon.
    case fediverse
}

extension ServedPosts {
    /// Boosts' own ids are this far above the statuses' (Mastodon's are new snowflakes).
    static let boostIDOffset = 100_000_000

    /// The shape of post `index` under `--shapes fediverse`: a cycle of twelve, so every
    /// screen shows each.
    enum Shape: Equatable {
        case plain, warned, sensitive, filteredWarn, filteredHide, gallery(Int), gif, video, boost
    }

    static func shape(of index: Int) -> Shape {
        switch index % 12 {
        case 1: .warned
        case 2: .gallery(4)
        case 3, 10: .boost
        case 4: .sensitive
        case 5: .gif
        case 6: .filteredWarn
        case 7: .gallery(2)
        case 8: .video
        case 9: .filteredHide
        default: .plain
        }
    }

    /// Status `index` with its shape; a boost wraps the status its number gives, shaped as
    /// a warned post, a gallery or a plain one in turn.
    func fediverseStatus(index: Int, base: String, media: (Int) -> MediaFacts) -> StatusJSON {
        var status = plainStatus(index: index, base: base, media: media(index))
        var shape = Self.shape(of: index)
        guard shape == .boost else { return reshape(status, as: shape, index: index, base: base, media: media) }
        shape = [Shape.plain, .warned, .gallery(3)][(index / 12) % 3]
        let inner = reshape(status, as: shape, index: index, base: base, media: media)
        status.id = String(statusID(ofIndex: index) + Self.boostIDOffset)
        status.content = ""
        status.media_attachments = []
        status.account = AccountJSON(id: "rover", username: "rover", acct: "rover@boosts.example", display_name: "Rover")
        status.favourites_count = 0
        status.favourited = false
        status.reblog = Reblog(inner)
        return status
    }

    private func reshape(_ plain: StatusJSON, as shape: Shape, index: Int, base: String, media: (Int) -> MediaFacts) -> StatusJSON {
        var status = plain
        status.sensitive = false
        status.spoiler_text = ""
        switch shape {
        case .plain, .boost: break
        case .warned:
            status.sensitive = true
            status.spoiler_text = "Heights, a long drop"
        case .sensitive:
            status.sensitive = true
        case .filteredWarn, .filteredHide:
            let action = shape == .filteredHide ? "hide" : "warn"
            status.filtered = [FilterResultJSON(filter: .init(id: action == "hide" ? "2" : "1", title: action == "hide" ? "Crowds" : "Bridges",
                                                              context: ["home", "public"], filter_action: action),
                                                keyword_matches: [action == "hide" ? "crowd" : "bridge"], status_matches: nil)]
        case .gallery(let count):
            status.media_attachments = (0..<count).map { k in
                let other = (index + k) % self.count
                var picture = plainStatus(index: other, base: base, media: k == 0 ? media(index) : media(other)).media_attachments[0]
                picture.id = "\(status.id)-\(k)"
                picture.description = k % 2 == 0 ? picture.description : nil  // every other without alt text
                return picture
            }
        case .gif:
            status.media_attachments[0].type = "gifv"
            status.media_attachments[0].url = "\(base)/media/original/\(index).mp4"  // a video: never fetched
        case .video:
            status.media_attachments[0].type = "video"
            status.media_attachments[0].url = "\(base)/media/original/\(index).mp4"
        }
        return status
    }

    /// The status a boost's own id names (favourite applies to it, as Mastodon's does).
    func boostedIndex(ofStatus id: String) -> Int? {
        guard shapes == .fediverse, let number = Int(id), number > Self.boostIDOffset,
              let index = index(ofStatus: String(number - Self.boostIDOffset)), Self.shape(of: index) == .boost else { return nil }
        return index
    }
}

import FeedFormat
import HashTreeCollections
import ImagePipeline

/// A feed's side of the catalogue: what a status carries beyond a title, a region and a
/// photo, and what is hidden until the person asks.
struct FeedParts: Sendable {
    /// Each post's originals, pictures, warning, booster and page, by post (0-based).
    var posts: [Extras] = []
    /// Each status id's post (0-based); pages may overlap when the timeline moves.
    var postsByStatusID: TreeDictionary<String, Int> = [:]
    /// Posts the person had favourited when their page was fetched (0-based).
    var favourited: Set<Int> = []
    /// `--show-sensitive`: warned posts start revealed.
    var showsSensitive = false
    /// Bumped whenever a post's shown text changes (revealed or hidden): the search index
    /// is built again for it.
    var textRevision = 0

    /// One post's parts beyond its entry.
    struct Extras: Sendable {
        var statusID: String
        var pictures: [FeedPicture]
        var warning: String?
        var boostedBy: String?
        var url: String?
        /// The text a warned post hides, kept aside while it is hidden: the entry's title
        /// (what the grid, the detail view and the search index read) is then the warning.
        var hiddenTitle: String?
    }

    /// Fills in what a feed's post `index` is beyond its entry.
    func describe(_ post: inout DestinationPost, index: Int) {
        let extras = posts[index]
        post.original = extras.pictures.first.map { AssetID(path: $0.url) }
        post.pictures = extras.pictures
        post.warning = extras.warning
        post.isHidden = extras.hiddenTitle != nil
        post.boostedBy = extras.boostedBy
        post.url = extras.url
    }
}

extension Catalogue {
    /// Adds a page of a feed's posts, in order, skipping statuses already here; returns how
    /// many were added. Each post shows its first picture's preview in the grid and its
    /// original large. A warned post's title is its warning until it is revealed: its text
    /// reaches neither the screen nor the search index before the person asks.
    @discardableResult
    public mutating func appendFeedPosts(_ posts: [FeedPost]) -> Int {
        precondition(isFeed, "appendFeedPosts: not a feed's catalogue")
        var added = 0
        for post in posts where feed.postsByStatusID[post.statusID] == nil {
            let hides = post.warning != nil && !feed.showsSensitive
            let index = appendEntry(title: hides ? post.warning! : post.title, region: post.region, likes: post.likes, photo: post.thumbnailURL)
            feed.postsByStatusID[post.statusID] = index
            feed.posts.append(FeedParts.Extras(statusID: post.statusID, pictures: post.pictures, warning: post.warning, boostedBy: post.boostedBy,
                                               url: post.url, hiddenTitle: hides ? post.title : nil))
            if post.favourited { feed.favourited.insert(index) }
            added += 1
        }
        return added
    }

    /// The status id of a feed's post `index` (nil outside a feed).
    public func statusID(ofPost index: Int) -> String? { isFeed && index < feed.posts.count ? feed.posts[index].statusID : nil }

    /// The post (0-based) of a feed's status `id`, if a page brought it.
    public func post(withStatusID id: String) -> Int? { feed.postsByStatusID[id] }

    /// Whether the person had favourited a feed's post `index` when its page was fetched
    /// (its `favourites_count` then counts them); false for other posts.
    public func isFavourited(ofPost index: Int) -> Bool { feed.favourited.contains(index) }

    /// Whether post `index` carries a warning (hidden or revealed now).
    public func hasWarning(ofPost index: Int) -> Bool { isFeed && index < feed.posts.count && feed.posts[index].warning != nil }

    /// Whether post `index` is hidden behind its warning now (its title is the warning).
    public func isHidden(ofPost index: Int) -> Bool { isFeed && index < feed.posts.count && feed.posts[index].hiddenTitle != nil }

    /// How many pictures post `index` has (1 outside a feed).
    public func pictureCount(ofPost index: Int) -> Int { isFeed && index < feed.posts.count ? feed.posts[index].pictures.count : 1 }

    /// Changes whenever a post's shown text does (``setHidden(_:ofPost:)``).
    public var textRevision: Int { feed.textRevision }

    /// Hides a warned post `index` behind its warning, or shows it as it is: its title (and
    /// so the search index's text) follows. The grid's model decides; the view tells the
    /// catalogue. Nothing happens to a post without a warning.
    public mutating func setHidden(_ hidden: Bool, ofPost index: Int) {
        guard hasWarning(ofPost: index), let warning = feed.posts[index].warning else { return }
        let isHidden = feed.posts[index].hiddenTitle != nil
        guard hidden != isHidden else { return }
        if hidden {
            feed.posts[index].hiddenTitle = entryText(index).title
            retitleEntry(index, to: warning)
        } else {
            retitleEntry(index, to: feed.posts[index].hiddenTitle!)
            feed.posts[index].hiddenTitle = nil
        }
        feed.textRevision += 1
    }

    /// Every warned post hidden (false) or shown as it is, and the posts of later pages the
    /// same; returns the indexes of the posts whose text changed.
    @discardableResult
    public mutating func setShowsSensitive(_ shown: Bool) -> [Int] {
        feed.showsSensitive = shown
        let changed = feed.posts.indices.filter { feed.posts[$0].warning != nil && (feed.posts[$0].hiddenTitle != nil) == shown }
        for index in changed { setHidden(!shown, ofPost: index) }
        return changed
    }
}

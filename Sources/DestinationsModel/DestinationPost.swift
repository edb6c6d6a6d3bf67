import FeedFormat
import ImagePipeline

/// One post of the grid, as in the seeds: the identifier never changes, the rest may.
public struct DestinationPost: Identifiable, Sendable, Hashable {
    public let id: Int
    public var title: String
    public var region: String
    public var numberOfLikes: Int
    /// The photo and the window of it this post shows; unique per post.
    public let asset: AssetID
    /// What the detail view opens, when it is not `asset` (a feed's original photo; the
    /// grid shows its preview).
    public var original: AssetID? = nil
    /// A feed's post: every picture it carries (the grid shows the first); empty otherwise.
    public var pictures: [FeedPicture] = []
    /// Why it is hidden until asked (a content warning, "sensitive", a filter's title).
    public var warning: String? = nil
    /// Hidden now: `title` is the warning, and neither its text nor its pictures are shown.
    public var isHidden = false
    /// Who boosted it, for a boost.
    public var boostedBy: String? = nil
    /// The status's web page.
    public var url: String? = nil
}

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
}

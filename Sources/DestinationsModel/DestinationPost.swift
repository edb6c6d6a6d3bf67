import ImagePipeline

/// One post of the grid, as in the seeds: the identifier never changes, the rest may.
public struct DestinationPost: Identifiable, Sendable, Hashable {
    public let id: Int
    public var title: String
    public var region: String
    public var numberOfLikes: Int
    /// The photo and the window of it this post shows; unique per post.
    public let asset: AssetID
}

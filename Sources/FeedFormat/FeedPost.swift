/// One post of a feed: a status with an image, as the grid shows it.
///
/// The mapping from a Mastodon status (``TimelinePage/parse(_:)``):
/// - `statusID`: the status's `id` (a boost's own id; its content is the boosted status's);
/// - `title`: the image's `description` (its alt text), else the text of `content` (HTML
///   removed, references decoded, control characters dropped), else "Untitled";
/// - `region`: the account's `display_name`, else its `acct` — the person who posted is
///   where a timeline's photo "comes from";
/// - `likes`: `favourites_count`;
/// - `thumbnailURL`: the attachment's `preview_url` (what the grid shows), `photoURL`: its
///   `url` (what the detail view opens), `width`/`height` from `meta.original`;
/// - `blurhash`: the attachment's, shown while the thumbnail loads.
public struct FeedPost: Sendable, Hashable {
    public var statusID: String
    public var title: String
    public var region: String
    public var likes: Int
    public var favourited: Bool
    public var thumbnailURL: String
    public var photoURL: String
    public var width: Int?
    public var height: Int?
    public var blurhash: String?

    public init(statusID: String, title: String, region: String, likes: Int, favourited: Bool = false, thumbnailURL: String, photoURL: String,
                width: Int? = nil, height: Int? = nil, blurhash: String? = nil) {
        self.statusID = statusID
        self.title = title
        self.region = region
        self.likes = likes
        self.favourited = favourited
        self.thumbnailURL = thumbnailURL
        self.photoURL = photoURL
        self.width = width
        self.height = height
        self.blurhash = blurhash
    }
}

/// One post of a feed: a status with at least one picture, as the grid shows it.
///
/// The mapping from a Mastodon status (``TimelinePage/parse(_:link:)``), read from the
/// *shown* status — the boosted one for a boost:
/// - `statusID`: the shown status's `id` (a boost's own id would favourite, but un-favourite
///   finds nothing on Mastodon: likes go to the status itself);
/// - `title`: the text of `content` (HTML removed, Mastodon's hidden link parts dropped,
///   references decoded, control characters dropped), else the first alt text, else "Untitled";
/// - `region`: the account's `display_name`, else its `acct`;
/// - `likes`: `favourites_count`;
/// - `pictures`: its `image` and `gifv` attachments (a gifv as its still, `preview_url`);
///   `video`, `audio` and `unknown` are not pictures. The first is what the grid shows;
/// - `warning`: why it is hidden until the person asks — `spoiler_text`, "sensitive" for
///   `sensitive: true` without one, or a `warn` filter's title; nil when nothing hides it;
/// - `boostedBy`: the name of who boosted it (the outer status's account), for a boost;
/// - `url`: the shown status's web page.
public struct FeedPost: Sendable, Hashable {
    public var statusID: String
    public var title: String
    public var region: String
    public var likes: Int
    public var favourited: Bool
    /// Every picture, the grid's first; never empty.
    public var pictures: [FeedPicture]
    /// The text shown instead of the title, and the reason the pictures are hidden, until
    /// the person reveals the post; nil: nothing hides it.
    public var warning: String?
    /// Who boosted it, when the timeline shows a boost.
    public var boostedBy: String?
    /// The status's web page (http or https).
    public var url: String?

    /// The first picture's preview: what the grid shows.
    public var thumbnailURL: String { pictures[0].previewURL }
    /// The first picture's original: what the detail view opens.
    public var photoURL: String { pictures[0].url }
    public var width: Int? { pictures[0].width }
    public var height: Int? { pictures[0].height }
    public var blurhash: String? { pictures[0].blurhash }

    /// A post of one picture (`thumbnailURL` shown, `photoURL` opened), nothing hidden.
    public init(statusID: String, title: String, region: String, likes: Int, favourited: Bool = false, thumbnailURL: String, photoURL: String,
                width: Int? = nil, height: Int? = nil, blurhash: String? = nil) {
        self.init(statusID: statusID, title: title, region: region, likes: likes, favourited: favourited,
                  pictures: [FeedPicture(previewURL: thumbnailURL, url: photoURL, width: width, height: height, blurhash: blurhash)])
    }

    /// A post of `pictures` (at least one).
    public init(statusID: String, title: String, region: String, likes: Int, favourited: Bool = false, pictures: [FeedPicture],
                warning: String? = nil, boostedBy: String? = nil, url: String? = nil) {
        precondition(!pictures.isEmpty, "FeedPost: a post has at least one picture")
        self.statusID = statusID
        self.title = title
        self.region = region
        self.likes = likes
        self.favourited = favourited
        self.pictures = pictures
        self.warning = warning
        self.boostedBy = boostedBy
        self.url = url
    }
}

/// One picture of a post: an `image` attachment, or a `gifv`'s still.
public struct FeedPicture: Sendable, Hashable {
    /// What the grid shows (`preview_url`; the original when a server gives none).
    public var previewURL: String
    /// What the detail view opens: the original image; a gifv's still (its `url` is a video).
    public var url: String
    /// Its alt text (`description`), cleaned; nil when it has none.
    public var altText: String?
    /// A gifv: an animation shown as its still.
    public var isAnimated: Bool
    public var width: Int?
    public var height: Int?
    public var blurhash: String?

    public init(previewURL: String, url: String, altText: String? = nil, isAnimated: Bool = false,
                width: Int? = nil, height: Int? = nil, blurhash: String? = nil) {
        self.previewURL = previewURL
        self.url = url
        self.altText = altText
        self.isAnimated = isAnimated
        self.width = width
        self.height = height
        self.blurhash = blurhash
    }
}

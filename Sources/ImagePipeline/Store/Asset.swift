/// What the store shows for an item right now.
public enum Asset: Sendable {
    /// The image, prepared for the size asked.
    case prepared(CellImage)
    /// A stand-in drawn at once (the photo's average colours, or its BlurHash), until the image arrives.
    case placeholder(CellImage)
    /// Preparation failed: a placeholder, and why (the app draws an error mark).
    case failed(CellImage, ImageError)

    /// Not the prepared image: a placeholder, or a failure's placeholder.
    public var isPlaceholder: Bool {
        if case .prepared = self { return false }
        return true
    }

    /// What to draw: the image or its placeholder.
    public var image: CellImage {
        switch self {
        case .prepared(let image), .placeholder(let image), .failed(let image, _): image
        }
    }
}

/// A finished request, posted by a worker, delivered on the main thread.
public struct AssetCompletion: Sendable {
    /// The store's number for the request.
    public let request: Int
    /// What was asked for.
    public let key: PreparedImageKey
    /// The prepared image, or why there is none.
    public let result: Result<CellImage, ImageError>
}

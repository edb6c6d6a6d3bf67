/// Why an image could not be prepared. The app shows each as a placeholder with an error
/// mark; the description is the line it logs.
public enum ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file is there but could not be read (permissions, a folder, a special file).
    case unreadable(path: String, reason: String)
    /// The file has no bytes.
    case empty(path: String)
    /// Neither JPEG nor PNG by its first bytes.
    case notAnImage(path: String)
    /// The header claims more pixels than ``ImageLimits/maximumPixels``; refused before
    /// any pixel memory is allocated.
    case tooLarge(path: String, width: Int, height: Int)
    /// The decoder found the data broken.
    case corrupt(path: String, reason: String)
    /// A valid image of a kind the pipeline does not decode (a 16-bit colour model, say).
    case unsupported(path: String, reason: String)
    /// A photo at a URL that could not be fetched because the server could not be reached
    /// and no copy was kept: offline. Asked for again when the network comes back
    /// (``AssetStore/forgetUnavailable()``).
    case unavailable(path: String, reason: String)
    /// A photo at a URL whose fetch failed in a way that may pass: the server answered 5xx,
    /// 429 or 408, it did not answer in time, or the connection dropped and could not be
    /// resumed. Asked for again after a backoff that doubles with each failure in a row
    /// (``AssetStore/retryInterrupted(now:)``), as a feed's pages are.
    case interrupted(path: String, reason: String)

    /// Worth asking for again later by itself (``interrupted(path:reason:)``); the other
    /// failures stay until something changes (the file, or the network for
    /// ``unavailable(path:reason:)``).
    public var isTransient: Bool {
        if case .interrupted = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot read (\(reason))"
        case .empty(let path): "\(path): empty file"
        case .notAnImage(let path): "\(path): not a JPEG, PNG, WebP or GIF image"
        case .tooLarge(let path, let width, let height):
            if ImageLimits.exceeded(width: width, height: height) {
                "\(path): \(width)×\(height) pixels is over the limit of \(ImageLimits.maximumPixels / 1_000_000) megapixels"
            } else if width * height > ImageLimits.maximumDecodedPixels {
                "\(path): \(width)×\(height) pixels would decode to more than the \(ImageLimits.maximumDecodedPixels / 1_000_000) megapixels a picture may take"
            } else {
                "\(path): \(width)×\(height) pixels would take more memory to decode than all decodes may share (\(DecodeBudget.shared.capacity >> 20) MB)"
            }
        case .corrupt(let path, let reason): "\(path): corrupt image (\(reason))"
        case .unsupported(let path, let reason): "\(path): unsupported image (\(reason))"
        case .unavailable(let path, let reason): "\(path): unavailable offline (\(reason))"
        case .interrupted(let path, let reason): "\(path): could not be fetched (\(reason)); asked again shortly"
        }
    }

    /// Short text for the error mark drawn over a placeholder.
    public var shortLabel: String {
        switch self {
        case .missing: "missing"
        case .unreadable: "unreadable"
        case .empty: "empty"
        case .notAnImage: "not an image"
        case .tooLarge: "too large"
        case .corrupt: "corrupt"
        case .unsupported: "unsupported"
        case .unavailable: "unavailable offline"
        case .interrupted: "will retry"
        }
    }
}

/// Limits that keep hostile or broken files from taking the process down.
public enum ImageLimits {
    /// 100 megapixels (e.g. 12 000 × 8 333): above any photo we show, far below what would
    /// exhaust memory (400 MB of RGBA at the limit).
    public static let maximumPixels = 100_000_000

    /// Whether a `width`×`height` image is over ``maximumPixels`` (or negative). Each side
    /// is checked before the product: a header's sides may each be up to 2³² − 1, whose
    /// product overflows `Int` (found by `make fuzz`: a PNG header of all 0xFF bytes
    /// trapped the worker).
    public static func exceeded(width: Int, height: Int) -> Bool {
        width < 0 || height < 0 || width > maximumPixels || height > maximumPixels || width * height > maximumPixels
    }
    /// What one decode may produce, 24 megapixels (96 MB of RGBA: a 6000 × 4000 camera
    /// photo): a PNG larger than that is refused (it has no smaller decode), a JPEG is decoded
    /// at a DCT scale that fits or refused (issue 43: 12-KB PNGs claiming 100 megapixels).
    public static let maximumDecodedPixels = 24_000_000
    /// Files above 256 MB are not read at all.
    public static let maximumFileBytes = 256 << 20
}

/// Encoded formats the pipeline decodes, recognised by their first bytes, not by name
/// (a PNG named `.jpg` decodes as the PNG it is).
public enum ImageFormat: Sendable {
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// PNG (its 8-byte signature).
    case png
    /// WebP (`RIFF`, a length, `WEBP`).
    case webp
    /// GIF (`GIF87a` or `GIF89a`).
    case gif

    /// The format `data` starts as, or nil for none of them.
    public init?(sniffing data: [UInt8]) {
        if data.count >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF {
            self = .jpeg
        } else if data.count >= 8 && data[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if data.count >= 12 && data[0..<4].elementsEqual(Array("RIFF".utf8)) && data[8..<12].elementsEqual(Array("WEBP".utf8)) {
            self = .webp
        } else if data.count >= 6 && (data[0..<6].elementsEqual(Array("GIF87a".utf8)) || data[0..<6].elementsEqual(Array("GIF89a".utf8))) {
            self = .gif
        } else {
            return nil
        }
    }
}

import CoreKit
import Synchronization

/// The thumbnail cache desktops share (freedesktop.org Thumbnail Managing Standard 0.9):
/// `$XDG_CACHE_HOME/thumbnails` (or `~/.cache/thumbnails`), one PNG per photo and size,
/// named after the MD5 of the photo's `file://` URI, holding `Thumb::URI` and
/// `Thumb::MTime` text chunks that say which photo, and which version of it, it shows.
///
/// A `--photos` run reads a valid thumbnail instead of decoding the photo (a second run of
/// the same folder decodes no photo at all, and one the file manager already thumbnailed
/// decodes none the first time either), writes one for every photo it did decode, and
/// records photos that failed under `fail/destinations-1/` so they are not tried again
/// until they change. Sendable: every worker thread asks it; files are written whole
/// (temporary file, then rename), so two writers of one thumbnail never mix.
public final class ThumbnailCache: Sendable {
    /// The spec's sizes: the longer side of a thumbnail in that folder, at most.
    public enum Size: Int, CaseIterable, Sendable {
        /// Up to 128 pixels.
        case normal = 128
        /// Up to 256 pixels.
        case large = 256
        /// Up to 512 pixels.
        case xLarge = 512
        /// Up to 1024 pixels.
        case xxLarge = 1024

        /// The folder under the cache's root that holds this size.
        public var folder: String {
            switch self {
            case .normal: "normal"
            case .large: "large"
            case .xLarge: "x-large"
            case .xxLarge: "xx-large"
            }
        }

        /// A `photo`-sized image's thumbnail in this size: the longer side `rawValue`
        /// pixels, aspect kept (as ``PixelBuffer/scaledToFit(box:)`` makes it); the photo's
        /// own size when it is smaller.
        public func dimensions(ofPhoto photo: (width: Int, height: Int)) -> (width: Int, height: Int) {
            let longer = max(photo.width, photo.height)
            guard longer > rawValue else { return photo }
            let scale = Double(rawValue) / Double(longer)
            return (max(1, Int((Double(photo.width) * scale).rounded())), max(1, Int((Double(photo.height) * scale).rounded())))
        }

        /// The smallest size whose thumbnail of `photo` covers `minimum` (a pixel to spare
        /// for rounding), or shows the whole photo; nil when even the largest is too small.
        public static func smallest(covering minimum: (width: Int, height: Int), photo: (width: Int, height: Int)) -> Size? {
            allCases.first { size in
                let thumbnail = size.dimensions(ofPhoto: photo)
                return (thumbnail.width > minimum.width && thumbnail.height > minimum.height)
                    || (thumbnail.width == photo.width && thumbnail.height == photo.height)
            }
        }
    }

    /// Where failures of this application go (`fail/appname-version`, as the spec asks).
    public static let failureFolder = "fail/destinations-1"

    /// The cache's folder (`$XDG_CACHE_HOME/thumbnails`).
    public let root: String
    private let tally = Tally()

    /// The cache in `root`.
    public init(root: String) { self.root = root }

    /// The user's cache: `$XDG_CACHE_HOME/thumbnails`, else `$HOME/.cache/thumbnails`
    /// (a relative XDG_CACHE_HOME is ignored, as the XDG spec says); nil without either.
    public static func user() -> ThumbnailCache? {
        userRoot(xdgCacheHome: Platform.environment("XDG_CACHE_HOME"), home: Platform.homeDirectory).map(ThumbnailCache.init(root:))
    }

    /// The folder ``user()`` uses, from those two variables' values.
    public static func userRoot(xdgCacheHome: String?, home: String?) -> String? {
        if let cache = xdgCacheHome, cache.hasPrefix("/") { return cache + "/thumbnails" }
        guard let home, !home.isEmpty else { return nil }
        return home + "/.cache/thumbnails"
    }

    // MARK: Names

    /// `file://` and the absolute path with every byte escaped that GLib's
    /// `g_filename_to_uri` escapes (so the MD5, and the file name, match other programs').
    public static func uri(forAbsolutePath path: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,=:@/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var escaped: [UInt8] = Array("file://".utf8)
        for byte in path.utf8 {
            if kept.contains(byte) {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// The file name of `uri`'s thumbnail in every size folder.
    public static func fileName(forURI uri: String) -> String { MD5.hex(Array(uri.utf8)) + ".png" }

    /// The path of `uri`'s thumbnail of `size`.
    public func path(forURI uri: String, size: Size) -> String { "\(root)/\(size.folder)/\(Self.fileName(forURI: uri))" }

    /// The path of `uri`'s failure record.
    public func failurePath(forURI uri: String) -> String { "\(root)/\(Self.failureFolder)/\(Self.fileName(forURI: uri))" }

    // MARK: Reading and writing

    /// Which photo, and which version of it: what a thumbnail must match to be used.
    public struct Photo: Sendable, Hashable {
        /// The photo's path.
        public let path: String
        /// Its `file://` URI, whose MD5 names the thumbnail.
        public let uri: String
        /// Its modification time in seconds, which a thumbnail must record to be valid.
        public let modificationTime: Int
    }

    /// The photo at `path` as the cache names it, or nil when it cannot be stat'ed or lies
    /// inside the cache itself (the spec forbids thumbnails of thumbnails).
    public func photo(at path: String) -> Photo? {
        guard let absolute = Platform.canonicalPath(path), !absolute.hasPrefix(root + "/"),
              let time = Platform.modificationTime(absolute) else { return nil }
        return Photo(path: absolute, uri: Self.uri(forAbsolutePath: absolute), modificationTime: time)
    }

    /// The smallest valid cached thumbnail of `photo` that is at least `minimum` pixels in
    /// both directions (or shows the photo at its full size), decoded; nil when none is.
    /// Only thumbnails whose `Thumb::URI` and `Thumb::MTime` match are used: one of an
    /// older version of the photo is stale.
    public func cached(_ photo: Photo, covering minimum: (width: Int, height: Int)) -> PixelBuffer? {
        for size in Size.allCases {
            let file = path(forURI: photo.uri, size: size)
            guard let data = try? Platform.readRegularFile(file, limit: 64 << 20),
                  let (width, height) = PNGCodec.headerSize(data) else { continue }
            let wholePhoto = max(width, height) < size.rawValue
            guard (width >= minimum.width && height >= minimum.height) || wholePhoto,
                  Self.matches(data, photo), let pixels = try? PNGCodec.decode(data, path: file) else { continue }
            tally.hits.add(1, ordering: .relaxed)
            return pixels
        }
        return nil
    }

    /// True when this application recorded a failure for this version of `photo`.
    public func hasFailed(_ photo: Photo) -> Bool {
        guard let data = try? Platform.readRegularFile(failurePath(forURI: photo.uri), limit: 1 << 20) else { return false }
        return Self.matches(data, photo)
    }

    /// Saves `pixels` (the whole photo, oriented, decoded at least as large as `size`'s
    /// thumbnail of it) as its thumbnail of `size`. Best effort: a read-only or full disk
    /// only costs the next run a decode.
    public func store(_ pixels: PixelBuffer, as size: Size, of photo: Photo) {
        let thumbnail = pixels.scaledToFit(box: size.rawValue)
        guard let png = try? PNGCodec.encode(thumbnail),
              let tagged = PNGText.inserting(Self.tags(for: photo), into: png),
              Platform.makeDirectories("\(root)/\(size.folder)", mode: 0o700),
              Platform.writeAtomically(tagged, to: path(forURI: photo.uri, size: size), mode: 0o600) else { return }
        tally.written.add(1, ordering: .relaxed)
    }

    /// Records that `photo` could not be read, as the spec's failure files do: an empty
    /// (1×1) PNG with the photo's URI and modification time.
    public func recordFailure(of photo: Photo) {
        guard let png = try? PNGCodec.encode(PixelBuffer(width: 1, height: 1, bytes: [0, 0, 0, 0])),
              let tagged = PNGText.inserting(Self.tags(for: photo), into: png),
              Platform.makeDirectories("\(root)/\(Self.failureFolder)", mode: 0o700),
              Platform.writeAtomically(tagged, to: failurePath(forURI: photo.uri), mode: 0o600) else { return }
        tally.failuresRecorded.add(1, ordering: .relaxed)
    }

    private static func tags(for photo: Photo) -> [(keyword: String, text: String)] {
        [("Thumb::URI", photo.uri), ("Thumb::MTime", String(photo.modificationTime)), ("Software", "destinations")]
    }

    private static func matches(_ png: [UInt8], _ photo: Photo) -> Bool {
        let entries = PNGText.entries(of: png)
        return entries.contains { $0.keyword == "Thumb::URI" && $0.text == photo.uri }
            && entries.contains { $0.keyword == "Thumb::MTime" && $0.text == String(photo.modificationTime) }
    }

    // MARK: Counters

    /// What the cache did, for the HUD and the JSON report.
    public struct Counters: Sendable, Equatable {
        /// Thumbnails read instead of decoding the photo.
        public var hits = 0
        /// EXIF-embedded thumbnails used instead of the photo's pixels.
        public var embeddedHits = 0
        /// Photos decoded because no thumbnail would do.
        public var photoDecodes = 0
        /// Thumbnails saved.
        public var written = 0
        /// Failures saved so the photo is not tried again.
        public var failuresRecorded = 0
        /// Photos not tried because a failure of this version is on record.
        public var knownFailures = 0
    }

    /// What the cache did so far.
    public var counters: Counters {
        var counters = Counters()
        counters.hits = tally.hits.load(ordering: .relaxed)
        counters.embeddedHits = tally.embeddedHits.load(ordering: .relaxed)
        counters.photoDecodes = tally.photoDecodes.load(ordering: .relaxed)
        counters.written = tally.written.load(ordering: .relaxed)
        counters.failuresRecorded = tally.failuresRecorded.load(ordering: .relaxed)
        counters.knownFailures = tally.knownFailures.load(ordering: .relaxed)
        return counters
    }

    func noteEmbeddedHit() { tally.embeddedHits.add(1, ordering: .relaxed) }
    func notePhotoDecode() { tally.photoDecodes.add(1, ordering: .relaxed) }
    func noteKnownFailure() { tally.knownFailures.add(1, ordering: .relaxed) }

    private final class Tally: Sendable {
        let hits = Atomic(0), embeddedHits = Atomic(0), photoDecodes = Atomic(0), written = Atomic(0)
        let failuresRecorded = Atomic(0), knownFailures = Atomic(0)
    }
}

import Foundation
import ImagePipeline
import Testing

/// The freedesktop thumbnail cache: names and text chunks as the spec says, a second run
/// that decodes no photo, stale and failed photos, EXIF thumbnails.
@Suite struct ThumbnailCacheTests {
    /// A fresh folder with `photos/` and `cache/`, removed when the test ends.
    final class Folder {
        let root: String
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        var cache: ThumbnailCache { ThumbnailCache(root: root + "/cache/thumbnails") }
        func photo(_ name: String, from fixtureName: String) throws -> String {
            let path = root + "/photos/" + name
            try FileManager.default.copyItem(atPath: fixture(fixtureName), toPath: path)
            return path
        }
        func write(_ bytes: [UInt8], as name: String) throws -> String {
            let path = root + "/photos/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    func prepare(_ path: String, with cache: ThumbnailCache, columns: Int = 16, rows: Int = 6) throws -> CellImage {
        try ImagePreparer(colorMode: .truecolor, thumbnails: cache).prepare(AssetID(path: path), columns: columns, rows: rows)
    }

    func modificationTime(_ path: String) throws -> Int {
        let date = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        return Int(date.timeIntervalSince1970)
    }

    @Test func theSpecsExampleName() {
        #expect(ThumbnailCache.fileName(forURI: "file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(ThumbnailCache.uri(forAbsolutePath: "/home/jens/my photos/ünï #1.jpg") == "file:///home/jens/my%20photos/%C3%BCn%C3%AF%20%231.jpg")
    }

    @Test func theCacheFolderFollowsXDG() {
        #expect(ThumbnailCache.userRoot(xdgCacheHome: "/x/cache", home: "/home/u") == "/x/cache/thumbnails")
        #expect(ThumbnailCache.userRoot(xdgCacheHome: nil, home: "/home/u") == "/home/u/.cache/thumbnails")
        #expect(ThumbnailCache.userRoot(xdgCacheHome: "relative", home: "/home/u") == "/home/u/.cache/thumbnails", "XDG: relative paths are ignored")
        #expect(ThumbnailCache.userRoot(xdgCacheHome: nil, home: nil) == nil)
    }

    @Test func aDecodedPhotoIsSavedWhereAndAsTheSpecSays() throws {
        let folder = try Folder()
        let path = try folder.photo("my photo.jpg", from: "quadrants-800.jpg")
        let cache = folder.cache
        _ = try prepare(path, with: cache)
        #expect(cache.counters.photoDecodes == 1 && cache.counters.written == 1 && cache.counters.hits == 0)
        let uri = "file://" + folder.root.replacingOccurrences(of: " ", with: "%20") + "/photos/my%20photo.jpg"
        let saved = ThumbnailCache.Size.allCases.map { cache.path(forURI: uri, size: $0) }.filter { FileManager.default.fileExists(atPath: $0) }
        try #require(saved.count == 1, "one thumbnail, in the largest size the decode fills")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: saved[0])))
        let text = Dictionary(PNGText.entries(of: png).map { ($0.keyword, $0.text) }, uniquingKeysWith: { first, _ in first })
        #expect(text["Thumb::URI"] == uri)
        #expect(text["Thumb::MTime"] == String(try modificationTime(path)))
        let pixels = try PNGCodec.decode(png, path: saved[0])
        let size = try #require(ThumbnailCache.Size.allCases.first { saved[0].contains("/\($0.folder)/") })
        #expect(max(pixels.width, pixels.height) == size.rawValue, "\(pixels.width)×\(pixels.height) in \(size.folder)")
        let attributes = try FileManager.default.attributesOfItem(atPath: saved[0])
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "thumbnails are private to the user")
    }

    @Test func aSecondRunDecodesNoPhoto() throws {
        let folder = try Folder()
        let path = try folder.photo("a.jpg", from: "quadrants-800.jpg")
        let first = try prepare(path, with: folder.cache)
        let again = folder.cache  // a new run: a new cache object over the same folder
        let second = try prepare(path, with: again)
        #expect(again.counters.photoDecodes == 0 && again.counters.hits == 1)
        #expect(second.columns == first.columns && second.rows == first.rows)
        // Cells much larger than the thumbnail: the photo itself is decoded.
        _ = try prepare(path, with: again, columns: 90, rows: 40)
        #expect(again.counters.photoDecodes == 1)
    }

    @Test func aChangedPhotoIsDecodedAgain() throws {
        let folder = try Folder()
        let path = try folder.photo("a.jpg", from: "quadrants-800.jpg")
        _ = try prepare(path, with: folder.cache)
        let later = Date(timeIntervalSince1970: TimeInterval(try modificationTime(path) + 60))
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        let again = folder.cache
        _ = try prepare(path, with: again)
        #expect(again.counters.hits == 0 && again.counters.photoDecodes == 1, "a thumbnail of an older version is stale")
    }

    @Test func aBrokenPhotoIsRecordedAndNotTriedAgain() throws {
        let folder = try Folder()
        let path = try folder.photo("broken.jpg", from: "corrupt.jpg")
        let cache = folder.cache
        #expect(throws: ImageError.self) { try prepare(path, with: cache) }
        #expect(cache.counters.failuresRecorded == 1)
        let uri = "file://" + folder.root + "/photos/broken.jpg"
        #expect(FileManager.default.fileExists(atPath: cache.root + "/fail/destinations-1/" + ThumbnailCache.fileName(forURI: uri)))
        let again = folder.cache
        #expect(throws: ImageError.self) { try prepare(path, with: again) }
        #expect(again.counters.knownFailures == 1 && again.counters.photoDecodes == 0)
    }

    @Test func anEmbeddedExifThumbnailServesSmallCells() throws {
        let folder = try Folder()
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("quadrants-800.jpg"))))
        let small = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("quadrants.jpg"))))  // 64×32
        let path = try folder.write(Self.jpeg(photo, withExifThumbnail: small), as: "camera.jpg")
        let cache = folder.cache
        let image = try prepare(path, with: cache, columns: 6, rows: 3)  // 48×24 pixels needed
        #expect(cache.counters.embeddedHits == 1 && cache.counters.photoDecodes == 0)
        #expect(image.columns == 6 && image.rows == 3)
        let big = folder.cache
        _ = try prepare(path, with: big, columns: 40, rows: 12)  // 320×96: more than 64×32
        #expect(big.counters.photoDecodes == 1)
    }

    @Test func theSizeChosenIsTheSmallestThatCoversTheCells() {
        typealias Size = ThumbnailCache.Size
        #expect(Size.large.dimensions(ofPhoto: (2560, 1600)) == (256, 160))
        #expect(Size.smallest(covering: (200, 100), photo: (2560, 1600)) == .large)
        #expect(Size.smallest(covering: (256, 160), photo: (2560, 1600)) == .xLarge, "a pixel to spare for rounding")
        #expect(Size.smallest(covering: (100, 300), photo: (1600, 2560)) == .xLarge, "portrait: the height decides")
        #expect(Size.smallest(covering: (300, 300), photo: (100, 50)) == .normal, "a small photo is its own thumbnail")
        #expect(Size.smallest(covering: (3000, 100), photo: (4000, 3000)) == nil, "past xx-large: the photo itself")
    }

    @Test func textChunksRoundTrip() throws {
        let png = try PNGCodec.encode(PixelBuffer(width: 2, height: 1, bytes: [1, 2, 3, 255, 4, 5, 6, 255]))
        let tagged = try #require(PNGText.inserting([("Thumb::URI", "file:///a%20b"), ("Title", "Ünïcode ✓")], into: png))
        let entries = PNGText.entries(of: tagged)
        #expect(entries.map(\.keyword) == ["Thumb::URI", "Title"] && entries.map(\.text) == ["file:///a%20b", "Ünïcode ✓"])
        #expect(try PNGCodec.decode(tagged, path: "t").bytes == [1, 2, 3, 255, 4, 5, 6, 255], "libpng accepts the chunks (CRCs right)")
    }

    /// `photo` with an APP1 Exif segment whose IFD1 holds `thumbnail` (big-endian TIFF).
    static func jpeg(_ photo: [UInt8], withExifThumbnail thumbnail: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] { u16(tag) + u16(type) + u32(1) + (type == 3 ? u16(value) + [0, 0] : u32(value)) }
        let ifd0 = 8, ifd1 = ifd0 + 2 + 12 + 4, data = ifd1 + 2 + 24 + 4
        var tiff: [UInt8] = Array("MM".utf8) + u16(42) + u32(ifd0)
        tiff += u16(1) + entry(0x0112, 3, 1) + u32(ifd1)
        tiff += u16(2) + entry(0x0201, 4, data) + entry(0x0202, 4, thumbnail.count) + u32(0)
        tiff += thumbnail
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1] + u16(payload.count + 2) + payload + Array(photo.dropFirst(2))
    }
}

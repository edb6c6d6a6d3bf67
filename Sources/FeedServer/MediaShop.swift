import CoreKit
import DestinationsModel
import FeedFormat
import Foundation
import ImagePipeline

/// A response body the server has whole: its bytes and its validators.
struct MediaBody: Sendable {
    let bytes: [UInt8]
    let etag: String
    let lastModified: Date
}

/// Makes and keeps what the media routes serve: each post's preview (a JPEG at most
/// `previewWidth` pixels wide of the post's crop of its photo, made on first request and
/// kept in `folder`, so a restarted server serves the same bytes with the same ETag), the
/// originals (the photo files), and each post's BlurHash (from a 48-pixel copy of its photo,
/// decoded once per photo).
final class MediaShop: Sendable {
    static let previewWidth = 640
    let posts: ServedPosts
    let folder: URL
    /// Per photo path: its size as seen, and a small copy for BlurHashes.
    private let photos = Lock<[String: PhotoFacts]>([:])
    /// Previews made or read this run, most recent last (at most `memoryLimit` bytes).
    private let memory = Lock<(bodies: [Int: MediaBody], order: [Int], bytes: Int)>(([:], [], 0))
    private let memoryLimit = 64 << 20

    struct PhotoFacts: Sendable {
        let width: Int
        let height: Int
        let small: PixelBuffer
        let modified: Date
    }

    init(posts: ServedPosts, folder: URL) {
        self.posts = posts
        self.folder = folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func photoFacts(_ path: String) throws(ImageError) -> PhotoFacts {
        if let known = photos.withLock({ $0[path] }) { return known }
        let preparer = ImagePreparer(colorMode: .truecolor)
        let data = try ImagePreparer.readFile(path)
        guard let size = preparer.orientedSize(of: data) else { throw .notAnImage(path: path) }
        let small = try preparer.decodeFile(path, covering: (48, 48)).scaledToFit(box: 48)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let modified = attributes?[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        let facts = PhotoFacts(width: size.width, height: size.height, small: small, modified: modified)
        photos.withLock { $0[path] = facts }
        return facts
    }

    /// Learns what the statuses of the first `count` posts say of their photos (size,
    /// BlurHash), on every core, as a server knows them from the upload: the first page is
    /// then answered in milliseconds, not after decoding its photos (about 200 ms for the
    /// bundled ones, which a benchmark of the client's first frame counted as the client's).
    func learnPhotos(ofFirst count: Int) {
        let paths = Array(Set((0..<min(count, posts.count)).map { posts.catalogue.post($0).asset.path }))
        DispatchQueue.concurrentPerform(iterations: paths.count) { _ = try? photoFacts(paths[$0]) }
    }

    /// What a status says of post `index`'s media.
    func facts(index: Int) -> MediaFacts {
        let asset = posts.catalogue.post(index).asset
        guard let photo = try? photoFacts(asset.path) else {
            return MediaFacts(blurhash: nil, originalWidth: 1, originalHeight: 1, previewWidth: 1, previewHeight: 1)
        }
        let crop = (width: max(1, Int(Double(photo.width) * asset.window.width)), height: max(1, Int(Double(photo.height) * asset.window.height)))
        let previewWidth = min(Self.previewWidth, crop.width)
        let previewHeight = max(1, crop.height * previewWidth / crop.width)
        let small = photo.small.cropped(to: asset.window)
        let hash = small.width > 0 && small.height > 0 ? Blurhash.encode(rgb: Self.rgb(small), width: small.width, height: small.height) : nil
        return MediaFacts(blurhash: hash, originalWidth: photo.width, originalHeight: photo.height, previewWidth: previewWidth, previewHeight: previewHeight)
    }

    /// Post `index`'s preview: from memory, else from `folder`, else made now.
    func preview(index: Int) throws(ImageError) -> MediaBody {
        if let body = memory.withLock({ $0.bodies[index] }) { return body }
        let asset = posts.catalogue.post(index).asset
        let name = String(Self.fnv1a(Array("\(asset.path) \(asset.window)".utf8)), radix: 16)
        let file = folder.appendingPathComponent("preview-\(name).jpg")
        let bytes: [UInt8]
        if let stored = try? [UInt8](Data(contentsOf: file)), !stored.isEmpty {
            bytes = stored
        } else {
            let facts = facts(index: index)
            let preparer = ImagePreparer(colorMode: .truecolor)
            let covering = (width: Int((Double(facts.previewWidth) / asset.window.width).rounded(.up)),
                            height: Int((Double(facts.previewHeight) / asset.window.height).rounded(.up)))
            let pixels = try preparer.decodeFile(asset.path, covering: covering).cropped(to: asset.window)
            bytes = try JPEGEncoder().encode(pixels.filling(width: facts.previewWidth, height: facts.previewHeight), quality: 80)
            // Written whole under another name and renamed (`.atomic`): a killed server never
            // leaves half a preview to serve.
            try? Data(bytes).write(to: file, options: .atomic)
        }
        let photoDate = (try? photoFacts(asset.path))?.modified ?? Date(timeIntervalSince1970: 0)
        let body = MediaBody(bytes: bytes, etag: Self.etag(bytes), lastModified: photoDate)
        remember(body, for: index)
        return body
    }

    /// Post `index`'s original: its photo file as it is.
    func original(index: Int) throws(ImageError) -> MediaBody {
        let path = posts.catalogue.post(index).asset.path
        let bytes = try ImagePreparer.readFile(path)
        return MediaBody(bytes: bytes, etag: Self.etag(bytes), lastModified: (try? photoFacts(path))?.modified ?? Date(timeIntervalSince1970: 0))
    }

    private func remember(_ body: MediaBody, for index: Int) {
        memory.withLock { state in
            guard state.bodies[index] == nil else { return }
            state.bodies[index] = body
            state.order.append(index)
            state.bytes += body.bytes.count
            while state.bytes > memoryLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.bodies.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
    }

    /// A strong validator: FNV-1a of the bytes and their length.
    static func etag(_ bytes: [UInt8]) -> String {
        "\"\(String(fnv1a(bytes), radix: 16))-\(String(bytes.count, radix: 16))\""
    }

    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    static func rgb(_ pixels: PixelBuffer) -> [UInt32] {
        (0..<(pixels.width * pixels.height)).map { i in
            UInt32(pixels.bytes[i * 4]) << 16 | UInt32(pixels.bytes[i * 4 + 1]) << 8 | UInt32(pixels.bytes[i * 4 + 2])
        }
    }
}

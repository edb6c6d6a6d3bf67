import FeedFormat
import Foundation
import HashTreeCollections
import ImagePipeline

/// Why a catalogue could not be used; the app prints the text and exits.
public enum CatalogueError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case empty(path: String)
    case duplicateID(path: String, id: Int)
    case missingPhoto(path: String, assetID: String)
    case noPhotos(path: String, skipped: Int)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): cannot read the catalogue (\(reason))"
        case let .malformed(path, reason): "\(path): malformed catalogue (\(reason))"
        case let .empty(path): "\(path): the catalogue has no posts"
        case let .duplicateID(path, id): "\(path): post id \(id) appears more than once"
        case let .missingPhoto(path, assetID): "\(path): assetID \"\(assetID)\" has no photo in the photos folder"
        case let .noPhotos(path, skipped): "\(path): no JPEG, PNG, WebP or GIF photos here\(skipped > 0 ? " (\(skipped) other files skipped)" : "")"
        }
    }
}

/// The destination posts of `Assets/catalog.json`, scalable to any number of posts.
///
/// Post *k* (0-based) takes its text from catalogue entry `k % count` and its own crop
/// window of that entry's photo (a Halton sequence over the free margin), so a million
/// posts are a million distinct images to prepare: caching cannot hide the work.
/// Posts are made on demand, O(1) each; nothing per post is stored.
public struct Catalogue: Sendable {
    /// A file of a photo folder that is not shown, and why.
    public struct SkippedFile: Sendable, Hashable {
        public let name: String
        public let reason: String
    }

    struct Entry: Decodable, Sendable {
        let id: Int
        let title: String
        let region: String
        let numberOfLikes: Int
        let assetID: String
    }

    private(set) var entries: [Entry]
    /// Photo paths (or a feed's preview URLs) by asset id. These tables grow page by page on
    /// the main thread: a `Dictionary` rehashes every key when it doubles — 10 ms at 49,000
    /// posts, twice that at 98,000, a hitch each time a feed paged past a power of two. A
    /// `TreeDictionary` (a hash trie) adds a key by copying at most one path (D-055).
    private(set) var photoPaths: TreeDictionary<String, String>
    /// A feed's side: status ids, originals, pictures, warnings (``FeedParts``).
    var feed = FeedParts()
    /// True for the posts of a feed (`--feed`): photos are URLs, and posts grow page by page.
    public private(set) var isFeed = false
    /// False while a ``PhotoFolderScan`` is still reading the folder: more entries follow.
    public internal(set) var isComplete = true
    /// A photo folder's name: the region of each of its posts.
    private var region = ""
    /// Files a photo folder held that are not usable photos, with why (empty for catalogue.json).
    public private(set) var skippedFiles: [SkippedFile] = []
    /// A browsed folder shows each photo whole the first time round; only repeats are crops.
    private(set) var showsWholePhotosFirst = false
    /// Fraction of each photo's width and height a post shows.
    public static let windowSize = 0.6

    /// Reads and checks `catalog.json` in `folder`; photos are `folder/photos/<assetID>.{jpg,png}`.
    public init(folder: URL) throws(CatalogueError) {
        let url = folder.appendingPathComponent("catalog.json")
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadable(path: url.path, reason: Self.reason(error)) }
        try self.init(catalogue: data, folder: folder)
    }

    /// Checks the bytes of a `catalog.json` whose photos are in `folder/photos` (the
    /// loader's core, also what `make fuzz` feeds with arbitrary bytes).
    public init(catalogue data: Data, folder: URL) throws(CatalogueError) {
        let url = folder.appendingPathComponent("catalog.json")
        struct File: Decodable { let posts: [Entry] }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch { throw .malformed(path: url.path, reason: Self.reason(error)) }
        guard !file.posts.isEmpty else { throw .empty(path: url.path) }
        var seen = Set<Int>()
        var paths: [String: String] = [:]
        for entry in file.posts {
            guard seen.insert(entry.id).inserted else { throw .duplicateID(path: url.path, id: entry.id) }
            if paths[entry.assetID] != nil { continue }
            let candidates = ["jpg", "jpeg", "png"].map { folder.appendingPathComponent("photos/\(entry.assetID).\($0)").path }
            guard let photo = candidates.first(where: FileManager.default.fileExists(atPath:)) else {
                throw .missingPhoto(path: url.path, assetID: entry.assetID)
            }
            paths[entry.assetID] = photo
        }
        entries = file.posts
        photoPaths = TreeDictionary(paths)
    }

    /// The photos of any folder as posts: JPEG, PNG, WebP and GIF files (recognised by their first
    /// bytes, not their names), titled after the file, the folder as region. Unreadable and
    /// non-image files are skipped and listed in ``skippedFiles``; subfolders are not entered.
    /// Reads every file before it returns; ``PhotoFolderScan`` returns after the first screen.
    public init(photosIn folder: URL) throws(CatalogueError) {
        var catalogue = try Catalogue(emptyPhotoFolder: folder)
        catalogue.addPhotos(named: try Self.fileNames(in: folder)[...], in: folder)
        guard !catalogue.entries.isEmpty else { throw .noPhotos(path: folder.path, skipped: catalogue.skippedFiles.count) }
        self = catalogue
    }

    /// A photo folder's catalogue before any file is read.
    init(emptyPhotoFolder folder: URL) throws(CatalogueError) {
        entries = []
        photoPaths = [:]
        showsWholePhotosFirst = true
        region = PlainText.clean(folder.standardizedFileURL.lastPathComponent)
    }

    /// A feed's catalogue before its first page: posts are added by ``appendFeedPosts(_:)``.
    /// `showsSensitive`: posts with a content warning are shown as they are from the start
    /// (`--show-sensitive`).
    public init(feedNamed name: String, showsSensitive: Bool = false) {
        entries = []
        photoPaths = [:]
        showsWholePhotosFirst = true
        region = PlainText.clean(name)
        isFeed = true
        feed.showsSensitive = showsSensitive
    }

    /// Appends an entry (a feed's post) and its photo; returns its post index (0-based).
    mutating func appendEntry(title: String, region: String, likes: Int, photo: String) -> Int {
        let id = entries.count + 1
        entries.append(Entry(id: id, title: title, region: region, numberOfLikes: likes, assetID: "\(id)"))
        photoPaths["\(id)"] = photo
        return id - 1
    }

    /// Replaces entry `index`'s title (a feed's post revealed or hidden again).
    mutating func retitleEntry(_ index: Int, to title: String) {
        let entry = entries[index]
        entries[index] = Entry(id: entry.id, title: title, region: entry.region, numberOfLikes: entry.numberOfLikes, assetID: entry.assetID)
    }

    /// The folder's entries by name, hidden ones left out.
    static func fileNames(in folder: URL) throws(CatalogueError) -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted() } catch {
            throw .unreadable(path: folder.path, reason: Self.reason(error))
        }
    }

    /// Sniffs `names` in order, adding each photo as an entry and each other file to the
    /// skipped list (folders are passed over); returns how many photos were added.
    @discardableResult
    mutating func addPhotos(named names: ArraySlice<String>, in folder: URL) -> Int {
        var added = 0
        for name in names {
            let path = folder.appendingPathComponent(name).path
            switch PhotoSniffer.kind(ofFileAt: path) {
            case .success:
                let id = entries.count + 1
                // A file name is anyone's text: terminal-safe before it is a title (issue 43).
                let title = PlainText.clean((name as NSString).deletingPathExtension.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " "))
                entries.append(Entry(id: id, title: title, region: region, numberOfLikes: Int(Self.stableHash(name) % 5000), assetID: "\(id)"))
                photoPaths["\(id)"] = path
                added += 1
            case .failure(let rejection) where rejection.reason == PhotoSniffer.folderReason:
                continue
            case .failure(let rejection):
                skippedFiles.append(SkippedFile(name: PlainText.clean(name), reason: rejection.reason))
            }
        }
        return added
    }

    /// FNV-1a: the same number for the same name in every run (Hasher is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// Which catalogue entry post `index` repeats: posts with the same entry share title
    /// (up to the "#n" suffix), region and photo, so per-entry work is done once.
    public func entryIndex(ofPost index: Int) -> Int { index % entries.count }

    /// Entries as they are in the file.
    public var baseCount: Int { entries.count }

    /// Post `index` of a catalogue scaled to any size; ids are `index + 1`.
    /// - Complexity: O(1).
    public func post(_ index: Int) -> DestinationPost {
        precondition(index >= 0, "Catalogue.post: index must be >= 0, got \(index)")
        let entry = entries[index % entries.count]
        let title = index < entries.count ? entry.title : "\(entry.title) #\(index / entries.count + 1)"
        var post = DestinationPost(id: index + 1, title: title, region: entry.region, numberOfLikes: likes(ofPost: index),
                                   asset: AssetID(path: photoPaths[entry.assetID]!,
                                                  window: showsWholePhotosFirst && index < entries.count ? .whole : Self.window(for: index)))
        if isFeed { feed.describe(&post, index: index) }
        return post
    }

    /// Post `index`'s likes in the catalogue, without making the post (no strings).
    /// - Complexity: O(1).
    public func likes(ofPost index: Int) -> Int {
        if isFeed { return entries[index].numberOfLikes }
        return (entries[index % entries.count].numberOfLikes &+ (index / entries.count) &* 7919) % 100_000
    }

    /// Entry `index`'s title and region as the file has them (posts repeating the entry
    /// add a "#n" suffix to the title).
    public func entryText(_ index: Int) -> (title: String, region: String) { (entries[index].title, entries[index].region) }

    /// The window of post `index`: a point of the (2, 3) Halton sequence scaled into the
    /// margin the window leaves. Distinct for every index.
    public static func window(for index: Int) -> CropWindow {
        let margin = 1 - windowSize
        return CropWindow(x: halton(index + 1, base: 2) * margin, y: halton(index + 1, base: 3) * margin,
                          width: windowSize, height: windowSize)
    }

    static func halton(_ index: Int, base: Int) -> Double {
        var result = 0.0, fraction = 1.0, i = index
        while i > 0 {
            fraction /= Double(base)
            result += fraction * Double(i % base)
            i /= base
        }
        return result
    }

    private static func reason(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context): return "missing field '\(key.stringValue)' at \(path(context))"
            case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.debugDescription) at \(path(context))"
            case .dataCorrupted(let context): return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
            @unknown default: return "\(decoding)"
            }
        }
        return (error as NSError).localizedDescription
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}

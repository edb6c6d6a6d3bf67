import Foundation
import ImagePipeline

/// Why a catalogue could not be used; the app prints the text and exits.
public enum CatalogueError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case empty(path: String)
    case duplicateID(path: String, id: Int)
    case missingPhoto(path: String, assetID: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): cannot read the catalogue (\(reason))"
        case let .malformed(path, reason): "\(path): malformed catalogue (\(reason))"
        case let .empty(path): "\(path): the catalogue has no posts"
        case let .duplicateID(path, id): "\(path): post id \(id) appears more than once"
        case let .missingPhoto(path, assetID): "\(path): assetID \"\(assetID)\" has no photo in the photos folder"
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
    struct Entry: Decodable, Sendable {
        let id: Int
        let title: String
        let region: String
        let numberOfLikes: Int
        let assetID: String
    }

    let entries: [Entry]
    let photoPaths: [String: String]
    /// Fraction of each photo's width and height a post shows.
    public static let windowSize = 0.6

    /// Reads and checks `catalog.json` in `folder`; photos are `folder/photos/<assetID>.{jpg,png}`.
    public init(folder: URL) throws(CatalogueError) {
        let url = folder.appendingPathComponent("catalog.json")
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadable(path: url.path, reason: Self.reason(error)) }
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
        photoPaths = paths
    }

    /// Entries as they are in the file.
    public var baseCount: Int { entries.count }

    /// Post `index` of a catalogue scaled to any size; ids are `index + 1`.
    /// - Complexity: O(1).
    public func post(_ index: Int) -> DestinationPost {
        precondition(index >= 0, "Catalogue.post: index must be >= 0, got \(index)")
        let entry = entries[index % entries.count]
        let title = index < entries.count ? entry.title : "\(entry.title) #\(index / entries.count + 1)"
        let likes = (entry.numberOfLikes &+ (index / entries.count) &* 7919) % 100_000
        return DestinationPost(id: index + 1, title: title, region: entry.region, numberOfLikes: likes,
                               asset: AssetID(path: photoPaths[entry.assetID]!, window: Self.window(for: index)))
    }

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

import DestinationsModel
import Foundation
import ImagePipeline
import Testing

let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets")

@Suite struct CatalogueTests {
    @Test func bundledCatalogueHasRealDestinationsAndPhotos() throws {
        let catalogue = try Catalogue(folder: assets)
        #expect(catalogue.baseCount >= 40)
        let titles = (0..<catalogue.baseCount).map { catalogue.post($0).title }
        #expect(titles.contains("Young grass") && titles.contains("Yellow blossom"))
        for index in 0..<catalogue.baseCount {
            #expect(FileManager.default.fileExists(atPath: catalogue.post(index).asset.path))
        }
    }

    @Test func everyPostOfAMillionHasItsOwnAsset() throws {
        let catalogue = try Catalogue(folder: assets)
        var seen = Set<AssetID>()
        // Every post among the first 20,000, and a stride through the million.
        for index in Array(0..<20_000) + Array(stride(from: 20_000, to: 1_000_000, by: 997)) + [999_999] {
            let post = catalogue.post(index)
            #expect(post.id == index + 1)
            let inserted = seen.insert(post.asset).inserted
            if !inserted { Issue.record("post \(index) repeats an asset: \(post.asset)"); return }
            let window = post.asset.window
            #expect(window.x + window.width <= 1.000001 && window.y + window.height <= 1.000001)
        }
    }

    @Test func badCataloguesAreRefusedWithAReason() throws {
        func folder(_ catalogue: String?, photos: [String] = []) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url.appendingPathComponent("photos"), withIntermediateDirectories: true)
            if let catalogue { try catalogue.write(to: url.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8) }
            for photo in photos { _ = FileManager.default.createFile(atPath: url.appendingPathComponent("photos/\(photo)").path, contents: Data([1])) }
            return url
        }
        func error(_ url: URL) -> CatalogueError? {
            do { _ = try Catalogue(folder: url); return nil } catch { return error }
        }
        let post = #"{"id": 1, "title": "Oslo", "region": "Norway", "numberOfLikes": 3, "assetID": "oslo"}"#
        let missing = try folder(nil)
        guard case .unreadable? = error(missing) else { Issue.record("no file: \(String(describing: error(missing)))"); return }
        let garbage = try folder("{ not json")
        guard case .malformed? = error(garbage) else { Issue.record("garbage: \(String(describing: error(garbage)))"); return }
        let noTitle = try folder(#"{"posts": [{"id": 1, "region": "Norway", "numberOfLikes": 3, "assetID": "oslo"}]}"#)
        #expect(error(noTitle) == .malformed(path: noTitle.appendingPathComponent("catalog.json").path, reason: "missing field 'title' at posts.0"))
        let empty = try folder(#"{"posts": []}"#)
        #expect(error(empty) == .empty(path: empty.appendingPathComponent("catalog.json").path))
        let twice = try folder("{\"posts\": [\(post), \(post)]}", photos: ["oslo.jpg"])
        #expect(error(twice) == .duplicateID(path: twice.appendingPathComponent("catalog.json").path, id: 1))
        let noPhoto = try folder("{\"posts\": [\(post)]}")
        #expect(error(noPhoto)?.description == "\(noPhoto.appendingPathComponent("catalog.json").path): assetID \"oslo\" has no photo in the photos folder")
        let fine = try folder("{\"posts\": [\(post)]}", photos: ["oslo.png"])
        #expect(try Catalogue(folder: fine).post(3).title == "Oslo #4")
    }
}

@testable import DestinationsModel
import CoreKit
import Foundation
import Testing

/// A large photo folder: the first screen's photos at once, the rest from a background
/// scan that ends with the same catalogue a full read gives.
@Suite struct PhotoFolderScanTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46])

    /// A folder of `photos` photos with a text file and a subfolder among them.
    func folder(photos: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for index in 0..<photos { try Self.jpeg.write(to: folder.appendingPathComponent(String(format: "photo-%03d.jpg", index))) }
        try Data("notes".utf8).write(to: folder.appendingPathComponent("photo-005b.txt"))
        return folder
    }

    @Test func theFirstScreenComesFirstAndTheScanEndsWithTheWholeFolder() throws {
        let folder = try folder(photos: 40)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wake = WakeSignal()
        let (first, scan) = try PhotoFolderScan.start(folder, firstScreen: 8, batch: 5, wake: wake)
        #expect(first.baseCount == 8 && !first.isComplete)
        #expect((0..<8).map { first.post($0).title } == (0..<8).map { String(format: "photo %03d", $0) })
        let running = try #require(scan)
        var updates: [Catalogue] = []
        let end = Date().addingTimeInterval(10)
        while updates.last?.isComplete != true && Date() < end {
            updates += running.updates.drain()
            usleep(1000)
        }
        let last = try #require(updates.last)
        let whole = try Catalogue(photosIn: folder)
        #expect(last.isComplete && last.baseCount == 40)
        #expect((0..<40).map { last.post($0).title } == (0..<40).map { whole.post($0).title })
        #expect(last.skippedFiles == whole.skippedFiles && last.skippedFiles.map(\.name) == ["photo-005b.txt"])
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.baseCount < $1.baseCount }, "each update adds photos")
    }

    @Test func aSmallFolderIsReadWholeWithNoScan() throws {
        let folder = try folder(photos: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (catalogue, scan) = try PhotoFolderScan.start(folder, firstScreen: 8)
        #expect(scan == nil && catalogue.isComplete && catalogue.baseCount == 3)
    }

    @Test func aFolderWithoutPhotosIsAnErrorAtOnce() throws {
        let folder = try folder(photos: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CatalogueError.noPhotos(path: folder.path, skipped: 1)) { try PhotoFolderScan.start(folder, firstScreen: 8) }
    }
}

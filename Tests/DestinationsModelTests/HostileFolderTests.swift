@testable import DestinationsModel
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A photo folder may hold anything: only regular files are read, and nothing blocks.
@Suite struct HostileFolderTests {
    @Test func specialFilesAreSkippedWithTheirReasonAndNothingBlocks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        // A photo by its magic bytes (the sniffer reads 8 bytes; decoding is not its job).
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46]).write(to: URL(fileURLWithPath: path("good.jpg")))
        try Data().write(to: URL(fileURLWithPath: path("empty.jpg")))
        #expect(mkfifo(path("pipe.jpg"), 0o644) == 0, "mkfifo")
        try FileManager.default.createSymbolicLink(atPath: path("zero.jpg"), withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: path("loop-a.jpg"), withDestinationPath: path("loop-b.jpg"))
        try FileManager.default.createSymbolicLink(atPath: path("loop-b.jpg"), withDestinationPath: path("loop-a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: path("gone.jpg"), withDestinationPath: "/nonexistent/photo.jpg")
        try bindSocket(at: path("socket.jpg"))

        let catalogue = try Catalogue(photosIn: folder)
        #expect(catalogue.baseCount == 1 && catalogue.post(0).title == "good")
        let reasons = Dictionary(uniqueKeysWithValues: catalogue.skippedFiles.map { ($0.name, $0.reason) })
        #expect(reasons["pipe.jpg"] == "a named pipe, not a photo")
        #expect(reasons["zero.jpg"] == "a device, not a photo")
        #expect(reasons["socket.jpg"] == "a socket, not a photo")
        #expect(reasons["loop-a.jpg"] == "a symbolic link loop" && reasons["loop-b.jpg"] == "a symbolic link loop")
        #expect(reasons["gone.jpg"] == "a broken link")
        #expect(reasons["empty.jpg"] == "empty")
        #expect(catalogue.skippedFiles.count == 7, "\(reasons)")
    }

    /// A Unix socket at `path` (closed again: the file stays, as a socket).
    private func bindSocket(at path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(107)) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(status == 0, "bind \(path)")
    }
}

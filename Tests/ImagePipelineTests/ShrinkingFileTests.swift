import CoreKit
import Foundation
import ImagePipeline
import Testing

/// A photo that is cut short or replaced while a worker reads it: every read ends, with the
/// photo or with a clean error, whatever the timing (the outcome of the race is not asserted).
@Suite struct ShrinkingFileTests {
    @Test func aFileTruncatedWhileBeingReadEndsInAPhotoOrAnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shrinking-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photo.jpg").path
        let photo = try Data(contentsOf: URL(fileURLWithPath: fixture("quadrants-800.jpg")))
        let big = photo + Data(count: 4 << 20)  // a long tail to be cut while reading
        try big.write(to: URL(fileURLWithPath: path))
        let running = Lock(true)
        let cutter = Thread {
            // Truncate and restore in a loop, at no particular moment relative to the reads.
            while running.withLock({ $0 }) {
                truncate(path, 0)
                try? big.write(to: URL(fileURLWithPath: path))
                truncate(path, photo.count / 2)
            }
        }
        cutter.start()
        defer { running.withLock { $0 = false } }
        let preparer = ImagePreparer(colorMode: .palette240)
        var prepared = 0, refused = 0
        for _ in 0..<60 {
            do {
                _ = try preparer.prepare(AssetID(path: path), columns: 8, rows: 4)
                prepared += 1
            } catch {
                refused += 1  // empty, shrank while reading, corrupt: each a clean ImageError
            }
        }
        #expect(prepared + refused == 60)
    }
}

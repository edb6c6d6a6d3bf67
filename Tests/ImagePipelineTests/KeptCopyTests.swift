import CoreKit
import Foundation
import ImagePipeline
import Testing

/// Photos a disk cache keeps fresh are read without a request, and without a start from the
/// rate limit (issue 26): the limit is there for the server, not for the disk.
@Suite struct KeptCopyTests {
    /// Serves every `kept:` URL from "the disk"; anything else would be a request.
    final class Transport: ImageSource, @unchecked Sendable {
        let bytes: [UInt8]
        let requests = Lock(0)
        init() { bytes = [UInt8](FileManager.default.contents(atPath: fixture("quadrants-800.jpg"))!) }
        func image(at url: String, kind: PhotoKind, request: Int, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
            requests.withLock { $0 += 1 }
            return .bytes(bytes)
        }
        func keptImage(at url: String) -> ImageInput? { url.hasPrefix("kept:") ? .bytes(bytes) : nil }
    }

    /// One start a second, a bucket of one, and a clock that never moves: without the
    /// refund only the first photo could ever start; with it, all twenty arrive.
    @Test func keptCopiesTakeNoStartFromTheRateLimit() async throws {
        let transport = Transport()
        let loader = ImageLoader(source: transport, policy: TransferPolicy(connections: 4, prefetchConnections: 2, startsPerSecond: 1, burst: 1),
                                        workers: 1, priority: .normal, colorMode: .palette240, now: { .seconds(1) })
        for n in 0..<20 {
            while !loader.load(PreparedImageKey(asset: AssetID(path: "kept:\(n)"), columns: 8, rows: 4), request: n, priority: n, cancellation: Cancellable(priority: n)) {}
        }
        var arrived = 0
        for _ in 0..<3000 where arrived < 20 {
            loader.postDueCompletions()
            arrived += loader.inbox.drain().count { if case .success = $0.result { true } else { false } }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(arrived == 20)
        #expect(transport.requests.withLock { $0 } == 0 && loader.networkCounters.keptCopies == 20)
        // The bucket is still full: a photo that needs the network starts at once.
        while !loader.load(PreparedImageKey(asset: AssetID(path: "net:1"), columns: 8, rows: 4), request: 99, priority: 0, cancellation: Cancellable(priority: 0)) {}
        loader.startQueuedWork()  // what the frame loop does after the commit
        for _ in 0..<3000 where transport.requests.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(transport.requests.withLock { $0 } == 1)
    }
}

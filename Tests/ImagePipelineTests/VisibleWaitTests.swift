import CoreKit
import Foundation
import ImagePipeline
import Testing

/// What a person waited for a photo (`visibleTimeToImage`) against the time from each ask
/// (`timeToImage`), on a clock the test moves: a visible request counts from its ask, a
/// prefetch promoted to visible from the frame that saw it promoted, and a prefetch whose
/// cell never showed not at all.
@Suite struct VisibleWaitTests {
    /// Holds every transfer until the test lets them all go.
    final class HeldTransport: ImageSource, @unchecked Sendable {
        let bytes = [UInt8](FileManager.default.contents(atPath: fixture("quadrants-800.jpg"))!)
        let released = Lock(false)
        func image(at url: String, kind: PhotoKind, request: Int, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
            while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            onBytes(bytes.count, bytes.count)
            return .bytes(bytes)
        }
    }

    @Test func aPersonsWaitCountsFromWhenACellOnScreenWantedThePhoto() async throws {
        let transport = HeldTransport()
        let clock = Lock(Duration.zero)
        let loader = ImageLoader(source: transport, workers: 1, priority: .normal, colorMode: .palette240, now: { clock.withLock { $0 } })
        func ask(_ name: String, request: Int, priority: Int) -> Cancellable {
            let cancellation = Cancellable(priority: priority)
            while !loader.load(PreparedImageKey(asset: AssetID(path: name), columns: 8, rows: 4), request: request, priority: priority, cancellation: cancellation) {}
            return cancellation
        }
        _ = ask("visible", request: 0, priority: RequestPriority.visible(distance: 0))
        let promoted = ask("promoted", request: 1, priority: RequestPriority.prefetch(distance: 3))
        _ = ask("never-shown", request: 2, priority: RequestPriority.prefetch(distance: 9))
        clock.withLock { $0 = .seconds(1) }
        promoted.priority = RequestPriority.visible(distance: 3)  // its cell scrolled into view
        loader.postDueCompletions()  // the frame that sees it
        clock.withLock { $0 = .seconds(3) }
        transport.released.withLock { $0 = true }
        var arrived = 0
        for _ in 0..<3000 where arrived < 3 {
            loader.postDueCompletions()
            arrived += loader.inbox.drain().count
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(arrived == 3)
        let counters = loader.networkCounters
        #expect(counters.timeToImage.sorted() == [3000, 3000, 3000], "every request, from its ask")
        #expect(counters.visibleTimeToImage.sorted() == [2000, 3000], "the promoted one from its promotion; the prefetch nobody saw not at all")
    }
}

import FeedClient
import FeedServer
import Foundation
import Testing

/// `FeedServer.stop()`: a graceful stop, not a cancelled task (which traps in swift-nio when a
/// connection was accepted and not yet served).
@Suite(.serialized) struct FeedServerStopTests {
    @Test func stoppingEndsTheResponsesUnderWay() async throws {
        // Every photo stalls after its headers, for an hour.
        let feed = try await LoopbackFeed.start {
            $0.shape.stallRate = 1
            $0.shape.stallLimit = .seconds(3600)
        }
        let fetcher = try HTTPFetcher()
        defer { fetcher.shutdown() }
        let stalled = Task { try await fetcher.fetch("\(feed.base)/media/preview/1.jpg", limit: 1 << 20, deadline: .seconds(3600)) }
        let deadline = ContinuousClock.now + .seconds(60)
        while feed.stats.stalls == 0 {
            guard ContinuousClock.now < deadline else { throw TestFailure("the photo never stalled") }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Returns once the server's run has returned, the stalled response ended with it.
        await feed.stop()
        await #expect(throws: FetchError.self) { try await stalled.value }
    }
}

import FeedClient
@testable import FeedServer
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

/// The server's count of duplicate transfers (issue 47: feed_e2e failed once on an overlap
/// that was a photo asked for again while the server still sent the one the client had
/// cancelled): only two overlapping bodies both sent whole are a duplicate.
@Suite struct ServerStatsOverlapTests {
    @Test func onlyTwoWholeBodiesAtOnceAreADuplicate() {
        let stats = ServerStats()
        let cancelled = stats.mediaStarted("/media/1.jpg"), again = stats.mediaStarted("/media/1.jpg")
        stats.mediaEnded("/media/1.jpg", transfer: cancelled, whole: false)
        stats.mediaEnded("/media/1.jpg", transfer: again, whole: true)
        #expect(stats.snapshot.overlappingSameURL == 1 && stats.snapshot.duplicateTransfers == 0)
        let first = stats.mediaStarted("/media/2.jpg"), second = stats.mediaStarted("/media/2.jpg")
        let other = stats.mediaStarted("/media/3.jpg")
        stats.mediaEnded("/media/2.jpg", transfer: second, whole: true)
        #expect(stats.snapshot.duplicateTransfers == 0, "not known until both ended")
        stats.mediaEnded("/media/2.jpg", transfer: first, whole: true)
        stats.mediaEnded("/media/3.jpg", transfer: other, whole: true)
        #expect(stats.snapshot.overlappingSameURL == 2 && stats.snapshot.duplicateTransfers == 1 && stats.snapshot.mostConcurrentSameURL == 2)
        #expect(stats.mediaInFlight == 0)
    }
}

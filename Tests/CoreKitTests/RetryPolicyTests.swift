import CoreKit
import Testing

/// One retry policy for pages, photos and likes (issue 43): doubling to a cap, a random
/// share taken off so that clients that failed together do not return together, and a
/// server's `Retry-After` over it when longer.
@Suite struct RetryPolicyTests {
    @Test func theWaitDoublesToItsCapAndJitterOnlyShortensIt() {
        let pages = RetryPolicy.pages
        #expect((1...8).map { pages.ceiling(afterFailures: $0) } == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        #expect((1...8).map { RetryPolicy.photos.ceiling(afterFailures: $0) } == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        for failures in 1...10 {
            let ceiling = pages.ceiling(afterFailures: failures)
            #expect(pages.delay(afterFailures: failures, unit: 0) == ceiling)
            #expect(pages.delay(afterFailures: failures, unit: 0.999_999) > ceiling / 2 - .milliseconds(1))
            for _ in 0..<50 {
                let drawn = pages.delay(afterFailures: failures)
                #expect(drawn <= ceiling && drawn >= ceiling / 2)
            }
        }
        let exact = RetryPolicy(first: .seconds(2), cap: .seconds(60), jitter: 0)
        #expect(exact.delay(afterFailures: 3, unit: 0.7) == .seconds(8))
        #expect(pages.delay(afterFailures: 1, unit: 0.5, serverAsked: .seconds(120)) == .seconds(120), "the server's word when longer")
        #expect(pages.delay(afterFailures: 5, unit: 0, serverAsked: .seconds(3)) == .seconds(16), "ours when longer")
        #expect(pages.ceiling(afterFailures: 1_000_000) == .seconds(30), "no overflow")
    }

    @Test func aTokenBucketLetsABurstThroughThenItsRate() {
        var bucket = TokenBucket(rate: 4, capacity: 2, now: .zero)
        #expect(bucket.reserve(at: .zero) == .zero)
        #expect(bucket.reserve(at: .zero) == .zero)
        #expect(bucket.reserve(at: .zero) == .milliseconds(250))
        #expect(bucket.reserve(at: .zero) == .milliseconds(500), "waiters queue in order")
        // A second later: the two borrowed are paid back, two more accrued (the cap).
        #expect(bucket.reserve(at: .seconds(1)) == .zero)
        #expect(bucket.reserve(at: .seconds(1)) == .zero)
        #expect(bucket.reserve(at: .seconds(1)) == .milliseconds(250))
        var idle = TokenBucket(rate: 4, capacity: 2, now: .zero)
        #expect(idle.reserve(at: .seconds(3600)) == .zero && idle.reserve(at: .seconds(3600)) == .zero && idle.reserve(at: .seconds(3600)) > .zero,
                "a long quiet spell fills it to its capacity, no more")
    }
}

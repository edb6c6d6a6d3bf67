@testable import destinations
import Testing

/// The header's words while a feed's page is awaited tick each second, and say nothing of
/// time when nothing is awaited (an idle feed schedules no frame).
struct FeedWaitWordsTests {
    @Test func aRetryCountsDownWholeSecondsAndWakesAtEachChange() {
        let retryAt = Duration.seconds(10)
        #expect(FeedWaitWords.retry(at: retryAt, now: .seconds(6)) == "retry in 4 s")
        #expect(FeedWaitWords.retry(at: retryAt, now: .milliseconds(6_001)) == "retry in 4 s")
        #expect(FeedWaitWords.retry(at: retryAt, now: .milliseconds(9_999)) == "retry in 1 s")
        #expect(FeedWaitWords.retry(at: retryAt, now: retryAt) == "retrying…")
        // From 6.001 s, "4 s" is shown until 3 whole seconds are left, at 7 s.
        #expect(FeedWaitWords.nextChange(retryAt: retryAt, loadingSince: nil, now: .milliseconds(6_001)) == .seconds(7))
        #expect(FeedWaitWords.nextChange(retryAt: retryAt, loadingSince: nil, now: .seconds(7)) == .seconds(8))
        #expect(FeedWaitWords.nextChange(retryAt: retryAt, loadingSince: nil, now: .milliseconds(9_500)) == retryAt)
        // Each instant returned is one at which the words differ from the moment before.
        var now = Duration.milliseconds(2_345)
        while now < retryAt, let next = FeedWaitWords.nextChange(retryAt: retryAt, loadingSince: nil, now: now) {
            #expect(next > now)
            #expect(FeedWaitWords.retry(at: retryAt, now: next) != FeedWaitWords.retry(at: retryAt, now: next - .nanoseconds(1)))
            now = next
        }
        #expect(now == retryAt)
    }

    @Test func aSlowPageShowsItsWaitAfterThreeSeconds() {
        let asked = Duration.milliseconds(1_500)
        #expect(FeedWaitWords.loading(since: asked, now: .seconds(4)) == " · loading more…")
        #expect(FeedWaitWords.loading(since: asked, now: .milliseconds(4_500)) == " · loading more… 3 s")
        #expect(FeedWaitWords.loading(since: asked, now: .seconds(13)) == " · loading more… 11 s")
        #expect(FeedWaitWords.nextChange(retryAt: nil, loadingSince: asked, now: .seconds(2)) == .milliseconds(4_500))
        #expect(FeedWaitWords.nextChange(retryAt: nil, loadingSince: asked, now: .milliseconds(4_500)) == .milliseconds(5_500))
        #expect(FeedWaitWords.nextChange(retryAt: nil, loadingSince: asked, now: .seconds(13)) == .milliseconds(13_500))
        // A retry under way counts from the retry.
        #expect(FeedWaitWords.retry(at: .seconds(20), now: .seconds(25)) == "retrying… 5 s")
        #expect(FeedWaitWords.nextChange(retryAt: .seconds(20), loadingSince: nil, now: .seconds(21)) == .seconds(23))
    }

    @Test func nothingAwaitedSchedulesNothing() {
        #expect(FeedWaitWords.nextChange(retryAt: nil, loadingSince: nil, now: .seconds(100)) == nil)
        #expect(FeedWaitWords.loading(since: nil, now: .seconds(100)) == " · loading more…")
    }
}

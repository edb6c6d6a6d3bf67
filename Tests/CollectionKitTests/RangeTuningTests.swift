import CollectionKit
import Testing

/// The adaptive prefetch distance (issue 25): scroll speed × time to image.
@Suite struct RangeTuningTests {
    @Test func aFlingLooksFurtherAheadThanASlowScroll() {
        let slow = RangeTuning.preloadAhead(speed: 20, timeToImage: .milliseconds(200), viewportRows: 40)
        let fling = RangeTuning.preloadAhead(speed: 400, timeToImage: .milliseconds(200), viewportRows: 40)
        #expect(abs(slow - 1.1) < 1e-9)
        #expect(abs(fling - 3) < 1e-9)
        #expect(slow < RangeTuning().preloadLeading && fling > RangeTuning().preloadLeading, "around Texture's fixed 2.5 screens")
    }

    @Test func aSlowerNetworkLooksFurtherAhead() {
        let fast = RangeTuning.preloadAhead(speed: 200, timeToImage: .milliseconds(100), viewportRows: 40)
        let slow = RangeTuning.preloadAhead(speed: 200, timeToImage: .milliseconds(600), viewportRows: 40)
        #expect(abs(fast - 1.5) < 1e-9 && abs(slow - 4) < 1e-9)
    }

    @Test func boundedBothWays() {
        #expect(RangeTuning.preloadAhead(speed: 0, timeToImage: .seconds(5), viewportRows: 40) == 1, "at rest: the next screen")
        #expect(RangeTuning.preloadAhead(speed: -5000, timeToImage: .seconds(5), viewportRows: 40) == 8, "direction does not matter; capped")
        #expect(RangeTuning.preloadAhead(speed: 100, timeToImage: .seconds(1), viewportRows: 0) == 1)
        #expect(RangeTuning.preloadAhead(speed: 100, timeToImage: .seconds(-1), viewportRows: 40) == 1)
    }
}

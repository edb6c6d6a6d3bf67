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

    /// A slowing fling: the far edge (offset + 1 + distance screens) never moves back toward
    /// the viewport, frame after frame, while the raw distance shrinks faster than the scroll.
    @Test func theFarEdgeHoldsWhileAFlingSlowsDown() {
        var offset = 0.0, distance = 6.0, farEdge = offset + 1 + distance
        for frame in 1...120 {
            let speed = 4.0 * (1 - Double(frame) / 120)  // screens a second, down to rest
            let advanced = speed / 120
            let target = max(1, 1 + speed * 1.5)  // what preloadAhead would ask: shrinking
            distance = RangeTuning.easedPreloadAhead(previous: distance, target: target, advancedScreens: advanced, elapsed: .zero)
            offset += advanced
            #expect(offset + 1 + distance >= farEdge - 1e-9, "frame \(frame): the edge moved back")
            farEdge = offset + 1 + distance
        }
    }

    @Test func itGrowsAtOnceAndSettlesAtRest() {
        #expect(RangeTuning.easedPreloadAhead(previous: 2, target: 5, advancedScreens: 0.1, elapsed: .milliseconds(8)) == 5, "grows at once")
        #expect(RangeTuning.easedPreloadAhead(previous: 5, target: 1, advancedScreens: -0.1, elapsed: .milliseconds(8)) == 1, "turned: the target")
        var distance = 5.0
        for _ in 0..<10 { distance = RangeTuning.easedPreloadAhead(previous: distance, target: 1, advancedScreens: 0, elapsed: .milliseconds(25)) }
        #expect(abs(distance - 3) < 1e-9, "at rest, eight screens a second: 0.25 s → 2 screens less")
        for _ in 0..<20 { distance = RangeTuning.easedPreloadAhead(previous: distance, target: 1, advancedScreens: 0, elapsed: .milliseconds(25)) }
        #expect(distance == 1, "and no lower than the target")
    }
}

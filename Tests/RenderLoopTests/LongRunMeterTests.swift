import CoreKit
@testable import RenderLoop
import Testing
import TestSupport

/// A session of hours must not freeze its live figures nor grow its per-frame cost.
@Suite struct LongRunMeterTests {
    @Test func theLiveWindowKeepsMovingPastTheRetainedRecords() {
        let clock = VirtualClock()
        var meter = HitchMeter(retainedRecordLimit: 1000)
        let scheduler = FrameScheduler(refreshRate: .hz120, clock: clock)
        let delegate = ScriptedCommits(clock: clock) { .microseconds(100 + Int64($0 % 50)) }
        for _ in 0..<5000 { meter.record(scheduler.runFrame(delegate)) }
        #expect(meter.records.count == 1000, "traces keep the first frames only")
        #expect(meter.frames == 5000)
        let last = meter.recentRecords(10).map(\.index)
        #expect(last == Array(4990..<5000), "the HUD sees the newest frames: \(last)")
        #expect(meter.recentRecords(5000).count == HitchMeter.recentLimit)
        #expect(meter.recentCommitPercentile(1, last: 50) == .microseconds(149))
    }

    /// Past the exact limit, percentiles come from the histogram: never below the true
    /// nearest-rank value and within 0.2 % above it; the maximum stays exact.
    @Test func histogramPercentilesAreWithinTheirBucket() {
        var histogram = CommitHistogram()
        var rng = SplitMix64(seed: 9)
        var values: [Int64] = []
        for _ in 0..<200_000 {
            let value = Int64(rng.below(20_000_000)) + Int64(rng.below(1000))
            values.append(value)
            histogram.record(value)
        }
        values.sort()
        for p in [0.5, 0.9, 0.95, 0.99, 0.999, 1.0] {
            let exact = values[min(max(Int((p * Double(values.count)).rounded(.up)), 1), values.count) - 1]
            let approximate = histogram.percentile(p)
            #expect(approximate >= exact && Double(approximate) <= Double(exact) * 1.002 + 1, "p\(p): \(approximate) vs \(exact)")
        }
        #expect(histogram.maximum == values.last)
        #expect(CommitHistogram.highestValue(in: CommitHistogram.index(of: 1023)) == 1023)
        for value: Int64 in [1024, 1025, 4_000_000, 8_333_333, Int64.max / 2] {
            let index = CommitHistogram.index(of: value)
            #expect(CommitHistogram.highestValue(in: index) >= value && CommitHistogram.index(of: CommitHistogram.highestValue(in: index)) == index)
        }
    }
}

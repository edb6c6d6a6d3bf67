import CoreKit
import Foundation
import RenderLoop
import Testing
import TestSupport

@Suite struct HitchMeterTests {
    /// 10 frames at 100 Hz; frame 3 costs 15 ms (one tick late), frame 6 costs 25 ms (two).
    /// Worked by hand: shown at 10, 20, 30, 50, 60, 70, 100, 110, 120, 130 ms; hitch time
    /// 10 + 20 = 30 ms over 130 ms = 230.769… ms/s.
    func handCase() -> (HitchReport, [FrameRecord]) {
        let clock = VirtualClock()
        let costs: [Int: Duration] = [3: .milliseconds(15), 6: .milliseconds(25)]
        let delegate = ScriptedCommits(clock: clock) { costs[$0] ?? .milliseconds(1) }
        let scheduler = FrameScheduler(refreshRate: try! RefreshRate(hertz: 100), clock: clock)
        scheduler.run(frames: 10, delegate)
        return (scheduler.meter.report(), scheduler.meter.records)
    }

    /// The live figures (no sort of the whole run) agree with the full report.
    @Test func liveRatioAndRecentPercentileMatchTheReport() {
        let clock = VirtualClock()
        let costs: [Int: Duration] = [3: .milliseconds(15), 6: .milliseconds(25)]
        let delegate = ScriptedCommits(clock: clock) { costs[$0] ?? .milliseconds(1) }
        let scheduler = FrameScheduler(refreshRate: try! RefreshRate(hertz: 100), clock: clock)
        scheduler.run(frames: 10, delegate)
        let meter = scheduler.meter, report = meter.report()
        #expect(meter.hitchRatio == report.hitchRatio && meter.band == report.band)
        #expect(meter.recentCommitPercentile(0.99, last: 100) == report.commitP99)
        #expect(meter.recentCommitPercentile(1.0, last: 4) == .milliseconds(25), "frames 6...9 hold the 25 ms commit")
        #expect(meter.recentCommitPercentile(1.0, last: 3) == .milliseconds(1), "frames 7...9 do not")
    }

    @Test func handComputedRatioAndPercentiles() {
        let (report, records) = handCase()
        #expect(records.map(\.presentedAt) == [10, 20, 30, 50, 60, 70, 100, 110, 120, 130].map { Duration.milliseconds($0) })
        #expect(report.frames == 10)
        #expect(report.hitches == 2)
        #expect(report.totalHitchTime == .milliseconds(30))
        #expect(report.duration == .milliseconds(130))
        #expect(abs(report.hitchRatio - 30.0 / 0.130) < 1e-9)
        #expect(report.band == .critical)
        #expect(report.skippedTicks == 3)
        #expect(report.commitP50 == .milliseconds(1))
        #expect(report.commitP95 == .milliseconds(25))
        #expect(report.commitMax == .milliseconds(25))
    }

    @Test func oneTickLateInASecondIsTheWarningBand() {
        // 100 frames at 100 Hz, frame 50 one tick late: 10 ms over 1.01 s = 9.90099 ms/s.
        let clock = VirtualClock()
        let delegate = ScriptedCommits(clock: clock) { $0 == 50 ? .milliseconds(15) : .milliseconds(1) }
        let scheduler = FrameScheduler(refreshRate: try! RefreshRate(hertz: 100), clock: clock)
        scheduler.run(frames: 100, delegate)
        let report = scheduler.meter.report()
        #expect(report.duration == .milliseconds(1010))
        #expect(abs(report.hitchRatio - 10 / 1.01) < 1e-9)
        #expect(report.band == .warning)
    }

    @Test func bandEdges() {
        #expect(HitchBand(ratioMillisecondsPerSecond: 0) == .good)
        #expect(HitchBand(ratioMillisecondsPerSecond: 4.999) == .good)
        #expect(HitchBand(ratioMillisecondsPerSecond: 5) == .warning)
        #expect(HitchBand(ratioMillisecondsPerSecond: 10) == .warning)
        #expect(HitchBand(ratioMillisecondsPerSecond: 10.001) == .critical)
    }

    @Test func traceIsValidChromeJSONWithCommitsJobsAndHitches() throws {
        let (_, scheduler, _) = CellScrollSimulation.run(rate: .hz120, cellCost: .milliseconds(12.5), idleWork: false, frames: 12)
        let json = ChromeTrace.json(for: scheduler.meter.records, refreshRate: .hz120)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let events = object["traceEvents"] as! [[String: Any]]
        let commits = events.filter { $0["name"] as? String == "commit" }
        let hitches = events.filter { $0["name"] as? String == "hitch" }
        #expect(commits.count == scheduler.meter.frames)
        #expect(hitches.count == scheduler.meter.hitches)
        let first = try #require(scheduler.meter.records.first { $0.isHitch })
        let slice = try #require(hitches.first)
        #expect(slice["ts"] as? Double == Double(first.deadline.nanoseconds) / 1000)
        #expect(slice["dur"] as? Double == Double(first.hitchTime.nanoseconds) / 1000)

        let (_, withJobs, _) = CellScrollSimulation.run(rate: .hz120, cellCost: .milliseconds(12.5), idleWork: true, frames: 12)
        let jobJSON = ChromeTrace.json(for: withJobs.meter.records, refreshRate: .hz120)
        let jobEvents = (try JSONSerialization.jsonObject(with: Data(jobJSON.utf8)) as! [String: Any])["traceEvents"] as! [[String: Any]]
        #expect(jobEvents.filter { $0["cat"] as? String == "idle" }.count == withJobs.meter.idleJobs)
    }

    @Test func refreshRateParsingAndErrors() throws {
        #expect(try RefreshRate(parsing: "120").millihertz == 120_000)
        #expect(try RefreshRate(parsing: " 59.94hz").millihertz == 59_940)
        #expect(throws: RefreshRateError.outOfRange("500")) { try RefreshRate(parsing: "500") }
        #expect(throws: RefreshRateError.outOfRange("23.9")) { try RefreshRate(parsing: "23.9") }
        #expect(throws: RefreshRateError.notANumber("fast")) { try RefreshRate(parsing: "fast") }
        #expect(throws: RefreshRateError.tooPrecise("60.0001")) { try RefreshRate(parsing: "60.0001") }
        #expect(RefreshRateError.outOfRange("500").description == "refresh rate 500 Hz is outside 24–480 Hz (try 60 or 120)")
        #expect(RefreshRate.hz60.period == .nanoseconds(16_666_666))
    }
}

import CoreKit
import RenderLoop
import Testing
import TestSupport

@Suite struct SchedulerTests {
    @Test func ticksDoNotDriftOver100kFrames() {
        for rate in [RefreshRate.hz120, try! RefreshRate(hertz: 59.94), try! RefreshRate(hertz: 144)] {
            let clock = VirtualClock(startingAt: .seconds(3))
            var rng = SplitMix64(seed: 42)
            let period = rate.period.nanoseconds
            let delegate = ScriptedCommits(clock: clock) { _ in .nanoseconds(Int64(rng.below(Int(period / 2)))) }
            let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
            var checked = 0
            for k in 0..<100_000 {
                let record = scheduler.runFrame(delegate)
                // t0 + k·T with T = 10¹²/mHz ns, rounded once, never accumulated.
                let exact = Int64((Int128(k) * 1_000_000_000_000) / Int128(rate.millihertz))
                if record.tick != .seconds(3) + .nanoseconds(exact) { break }
                checked += 1
            }
            #expect(checked == 100_000, "\(rate): drifted at frame \(checked)")
            #expect(scheduler.meter.hitches == 0)
        }
        #expect(RefreshRate.hz120.tickOffset(100_000) == .nanoseconds(833_333_333_333))
    }

    @Test func missedTicksAreSkippedNotQueued() {
        let clock = VirtualClock()
        let rate = try! RefreshRate(hertz: 100)
        // Frame 2 takes 3.5 frames: due at tick 3, shown at tick 6.
        let delegate = ScriptedCommits(clock: clock) { $0 == 2 ? .milliseconds(35) : .milliseconds(1) }
        let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
        scheduler.run(frames: 5, delegate)
        let records = scheduler.meter.records
        #expect(records.map(\.tickIndex) == [0, 1, 2, 6, 7])
        #expect(records[2].skippedTicks == 3)
        #expect(records[2].presentedAt == .milliseconds(60))
        #expect(records[2].hitchTime == .milliseconds(30))
        #expect(records[3].commitStart == .milliseconds(60))
        #expect(delegate.drained == 5)
    }

    @Test func changingTheRateKeepsTicksOnTheNewGrid() {
        let clock = VirtualClock()
        let delegate = ScriptedCommits(clock: clock) { _ in .milliseconds(1) }
        let scheduler = FrameScheduler(refreshRate: .hz60, clock: clock)
        scheduler.run(frames: 3, delegate)
        scheduler.changeRefreshRate(to: .hz120)
        scheduler.run(frames: 3, delegate)
        let ticks = scheduler.meter.records.map(\.tick)
        let base = RefreshRate.hz60.tickOffset(3)
        #expect(Array(ticks.suffix(3)) == [0, 1, 2].map { base + RefreshRate.hz120.tickOffset($0) })
    }

    /// Regression: the app changes the rate while handling a key, inside a commit.
    @Test func changingTheRateInsideACommitTakesEffectAtTheNextFrame() {
        let clock = VirtualClock()
        final class Switcher: FrameDelegate {
            let clock: VirtualClock
            weak var scheduler: FrameScheduler?
            init(clock: VirtualClock) { self.clock = clock }
            func commit(_ frame: FrameInfo) {
                clock.advance(by: .milliseconds(1))
                if frame.index == 2 { scheduler?.changeRefreshRate(to: .hz120) }
            }
        }
        let switcher = Switcher(clock: clock)
        let scheduler = FrameScheduler(refreshRate: .hz60, clock: clock)
        switcher.scheduler = scheduler
        scheduler.run(frames: 6, switcher)
        let records = scheduler.meter.records
        #expect(scheduler.meter.hitches == 0)
        #expect(records[2].presentedAt == RefreshRate.hz60.tickOffset(3), "the frame that switched ends on the old cadence")
        let base = RefreshRate.hz60.tickOffset(3)
        #expect(records[3...].map(\.tick) == [0, 1, 2].map { base + RefreshRate.hz120.tickOffset($0) })
        #expect(scheduler.refreshRate == .hz120)
    }

    @Test func aJobThatDoesNotFitIsDeclinedAndOfferedAgain() {
        let clock = VirtualClock()
        let rate = try! RefreshRate(hertz: 100)
        final class Jobs: IdleWorkSource {
            let clock: VirtualClock
            var ran = 0
            init(clock: VirtualClock) { self.clock = clock }
            func nextIdleJob(for frame: FrameInfo) -> IdleJob? {
                IdleJob(kind: "big") { [self] in clock.advance(by: .milliseconds(15)); ran += 1 }
            }
        }
        let jobs = Jobs(clock: clock)
        let delegate = ScriptedCommits(clock: clock) { _ in .milliseconds(2) }
        let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
        scheduler.idleWork = jobs
        scheduler.run(frames: 6, delegate)
        let records = scheduler.meter.records
        // Frame 0: unknown cost, runs (2 + 15 = 17 ms, into frame 1, which still ends at 19 ≤ 20).
        #expect(records[0].jobsRun == 1)
        #expect(records[1].commitStart == .milliseconds(17))
        // Frame 1 ends at 19: 19 + 15 > 30 - 2, declined. Frame 2 starts at 20, ends 22: 22 + 15 ≤ 40 - 2, runs.
        #expect(records[1].jobsRun == 0 && records[1].declinedJobs == 1)
        #expect(records[2].jobsRun == 1)
        #expect(records[2].idleJobs[0].predicted == .milliseconds(15))
        #expect(scheduler.meter.hitches == 0)
    }

    @Test func idleWorkStopsAtTheGuardForFreeJobs() {
        let clock = VirtualClock()
        final class Free: IdleWorkSource {
            func nextIdleJob(for frame: FrameInfo) -> IdleJob? { IdleJob(kind: "free") {} }
        }
        let free = Free()
        let scheduler = FrameScheduler(clock: clock)
        scheduler.idleWork = free
        scheduler.maxIdleJobsPerFrame = 7
        let record = scheduler.runFrame(ScriptedCommits(clock: clock) { _ in .zero })
        #expect(record.jobsRun == 7)
    }

    @Test func mailboxDeliversEveryMessageInPostOrderPerThread() async {
        let mailbox = Mailbox<(Int, Int)>()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask { for i in 0..<1000 { mailbox.post((sender, i)) } }
            }
        }
        let drained = mailbox.drain()
        #expect(drained.count == 4000)
        for sender in 0..<4 {
            #expect(drained.filter { $0.0 == sender }.map(\.1) == Array(0..<1000))
        }
        #expect(mailbox.drain().isEmpty)
    }

    @Test func predictorIsAMovingMeanOverItsWindow() {
        var predictor = CostPredictor(window: 4)
        #expect(predictor.estimate == nil)
        for ms in [1, 2, 3, 4] { predictor.record(.milliseconds(ms)) }
        #expect(predictor.estimate == .microseconds(2500))
        predictor.record(.milliseconds(9))  // drops the 1
        #expect(predictor.estimate == .microseconds(4500))
    }
}

import RenderLoop
import Testing
import TestSupport

/// The seeds' diagram: at 120 Hz a new cell every 3 frames, each costing 1.5 frames.
@Suite struct SeedDiagramTests {
    let rate = RefreshRate.hz120
    var cellCost: Duration { rate.period * 3 / 2 }

    @Test func withoutIdleWorkEveryNewCellFrameHitchesByExactlyOneTick() {
        let (report, scheduler, simulation) = CellScrollSimulation.run(rate: rate, cellCost: cellCost, idleWork: false, frames: 300)
        let records = scheduler.meter.records
        let newCellFrames = records.filter { $0.tickIndex > 0 && $0.tickIndex % 3 == 0 }
        #expect(!newCellFrames.isEmpty)
        for frame in records {
            let bringsCell = frame.tickIndex > 0 && frame.tickIndex % 3 == 0
            #expect(frame.isHitch == bringsCell, "frame \(frame.index) at tick \(frame.tickIndex)")
            if bringsCell {
                // Due at tick n+1, shown at n+2: one tick, to the nanosecond.
                let expected = rate.tickOffset(frame.tickIndex + 2) - rate.tickOffset(frame.tickIndex + 1)
                #expect(frame.hitchTime == expected)
                #expect(frame.skippedTicks == 1)
            }
        }
        #expect(report.hitches == newCellFrames.count)
        #expect(simulation.preparedIdle == 0)
        #expect(simulation.preparedInCommit == report.hitches)
    }

    @Test func withIdleWorkNoFrameHitchesAlthoughAJobRunsIntoTheNextFrame() {
        let (report, scheduler, simulation) = CellScrollSimulation.run(rate: rate, cellCost: cellCost, idleWork: true, frames: 300)
        #expect(report.hitches == 0)
        #expect(report.totalHitchTime == .zero)
        #expect(simulation.preparedInCommit == 0)
        #expect(simulation.preparedIdle >= 300 / 3)
        // The seed's case: a prefetch ran past the tick, so the next commit started late
        // (and, being short, still met its deadline).
        let lateStarts = scheduler.meter.records.filter { $0.commitStart > $0.tick }
        #expect(!lateStarts.isEmpty)
        #expect(lateStarts.allSatisfy { $0.commitEnd <= $0.deadline })
    }

    @Test func aCostThatFitsAt60HzHitchesAt120Hz() {
        let cost = Duration.milliseconds(12)
        let at60 = CellScrollSimulation.run(rate: .hz60, cellCost: cost, idleWork: false).0
        let at120 = CellScrollSimulation.run(rate: .hz120, cellCost: cost, idleWork: false).0
        #expect(at60.hitches == 0)
        #expect(at120.hitches > 0)
        #expect(at120.band == .critical)
        // Idle-time preparation rescues 120 Hz for the same cost.
        #expect(CellScrollSimulation.run(rate: .hz120, cellCost: cost, idleWork: true).0.hitches == 0)
    }

    /// Regression: after a stretch of catch-up commits (idle work off), turning idle work
    /// on must end the hitches at once; long commits must not poison the prediction.
    @Test func enablingIdleWorkAfterLongCommitsEndsTheHitches() {
        let clock = VirtualClock()
        let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
        let workload = SteadyScrollWorkload(startingAt: clock.now, cellCost: .milliseconds(12)) { clock.advance(by: $0) }
        scheduler.idleWork = workload
        scheduler.isIdleWorkEnabled = false
        scheduler.run(frames: 60, workload)
        #expect(scheduler.meter.hitches > 10)
        scheduler.isIdleWorkEnabled = true
        scheduler.run(frames: 6, workload)
        scheduler.resetMeter()
        scheduler.run(frames: 120, workload)
        #expect(scheduler.meter.hitches == 0)
        #expect(scheduler.predictedCommitCost! < .milliseconds(1))
    }

    /// The largest hitch-free cell cost, scanning upward in 10 µs steps; also checks that
    /// every smaller cost is hitch-free (the scan stops at the first hitch).
    static func headroom(rate: RefreshRate, idleWork: Bool) -> Duration {
        let step = Duration.microseconds(10)
        var cost = step
        while CellScrollSimulation.run(rate: rate, cellCost: cost, idleWork: idleWork, frames: 120).0.hitches == 0 {
            cost += step
        }
        return cost - step
    }

    @Test func idleWorkNearlyDoublesTheHeadroom() {
        let without = Self.headroom(rate: rate, idleWork: false)
        let with = Self.headroom(rate: rate, idleWork: true)
        let base = Duration.microseconds(500)
        // Analytic bounds: T - base without, 2T - 2·base with (one job spans two frames).
        #expect(without <= rate.period - base)
        #expect(without > rate.period - base - .microseconds(10))
        #expect(with <= (rate.period - base) * 2 + .nanoseconds(1))
        let ratio = with / without
        #expect(ratio >= 1.9, "headroom with idle work \(with), without \(without), ratio \(ratio)")
    }
}

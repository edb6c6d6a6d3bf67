import RenderLoop
import Testing

/// A late commit is the app's (it worked too long) or the machine's (its thread waited for a
/// core): ``FrameRecord/isHitchFromWaiting`` tells them apart with the thread's CPU clock. On
/// the virtual clock, `advance` is work and `preempt` is waiting, so every case is exact.
@Suite struct HitchCauseTests {
    /// Each phase of a frame, scripted per frame index: CPU work or waiting in the tick's
    /// wait (after the tick), in the commit, and after it (what runs into the next frame).
    final class Phases: FrameDelegate, FrameOutput {
        let clock: VirtualClock
        var workAfterTick: [Int: Duration] = [:]
        var waitAfterTick: [Int: Duration] = [:]
        var commitWork: [Int: Duration] = [:]
        var commitWait: [Int: Duration] = [:]
        var afterCommitWork: [Int: Duration] = [:]
        var afterCommitWait: [Int: Duration] = [:]
        private var frame = 0

        init(clock: VirtualClock) { self.clock = clock }

        var output: (any FrameOutput)? { self }
        func isOutputBehind(at tick: Duration) -> Bool { false }

        func waitForTick(_ tick: Duration, on clock: any FrameClock) {
            self.clock.sleep(until: tick)
            self.clock.preempt(for: waitAfterTick[frame] ?? .zero)
            self.clock.advance(by: workAfterTick[frame] ?? .zero)
        }

        func commit(_ info: FrameInfo) {
            frame = info.index
            clock.advance(by: commitWork[info.index] ?? .milliseconds(1))
            clock.preempt(for: commitWait[info.index] ?? .zero)
        }

        func deliverCommittedFrame() {
            clock.advance(by: afterCommitWork[frame] ?? .zero)
            clock.preempt(for: afterCommitWait[frame] ?? .zero)
            frame += 1
        }
    }

    static func run(_ script: (Phases) -> Void) -> [FrameRecord] {
        let clock = VirtualClock()
        let phases = Phases(clock: clock)
        script(phases)
        let scheduler = FrameScheduler(refreshRate: .hz120, clock: clock)
        scheduler.run(frames: 4, phases)
        return scheduler.meter.records
    }

    @Test func aCommitThatWorksTooLongIsTheApps() {
        let records = Self.run { $0.commitWork[1] = .milliseconds(10) }
        #expect(records[1].isHitch)
        #expect(records[1].commitCPU == .milliseconds(10))
        #expect(records[1].workFromTick == .milliseconds(10))
        #expect(!records[1].isHitchFromWaiting)
    }

    @Test func aCommitPreemptedMidwayIsFromWaiting() {
        let records = Self.run { $0.commitWork[1] = .microseconds(500); $0.commitWait[1] = .milliseconds(9) }
        #expect(records[1].isHitch)
        #expect(records[1].commitDuration == .microseconds(9500))
        #expect(records[1].commitCPU == .microseconds(500))
        #expect(records[1].isHitchFromWaiting)
    }

    @Test func aLateWakeUpIsFromWaitingButWorkAfterTheTickIsNot() {
        let late = Self.run { $0.waitAfterTick[2] = .milliseconds(8) }
        #expect(late[2].isHitch && late[2].isHitchFromWaiting)
        #expect(late[2].workFromTick == .milliseconds(1))
        // The same 8 ms spent working in the wait (a burst of input read after the tick).
        let busy = Self.run { $0.workAfterTick[2] = .milliseconds(8) }
        #expect(busy[2].isHitch && !busy[2].isHitchFromWaiting)
        #expect(busy[2].workFromTick == .milliseconds(9))
    }

    /// What ran past the tick before the frame's wait began counts as work on the wall
    /// clock, waiting or not: the rule never puts a hitch down to the machine when unsure.
    @Test func workRunningIntoTheNextFrameCountsAsItsOwn() {
        // Frame 1 ends at 9.33 ms; 12 ms more after it reach 4.67 ms past frame 2's tick.
        let worked = Self.run { $0.afterCommitWork[1] = .milliseconds(12); $0.commitWork[2] = .milliseconds(4) }
        #expect(worked[2].tick == RefreshRate.hz120.tickOffset(2))
        #expect(worked[2].isHitch && !worked[2].isHitchFromWaiting)
        let waited = Self.run { $0.afterCommitWait[1] = .milliseconds(12); $0.commitWork[2] = .milliseconds(4) }
        #expect(waited[2].isHitch && !waited[2].isHitchFromWaiting)
        #expect(waited[2].workFromTick == worked[2].workFromTick)
    }

    @Test func theMeterAndItsReportCountThem() {
        let clock = VirtualClock()
        let phases = Phases(clock: clock)
        phases.commitWork[1] = .milliseconds(10)
        phases.commitWait[2] = .milliseconds(9)
        phases.waitAfterTick[3] = .milliseconds(8)
        let scheduler = FrameScheduler(refreshRate: .hz120, clock: clock)
        scheduler.run(frames: 5, phases)
        #expect(scheduler.meter.commitHitches == 3)
        #expect(scheduler.meter.commitHitchesFromWaiting == 2)
        #expect(scheduler.meter.report().commitHitchesFromWaiting == 2)
        let trace = ChromeTrace.json(for: scheduler.meter.records, refreshRate: .hz120)
        #expect(trace.components(separatedBy: "\"from_waiting\":true").count - 1 == 2)
        #expect(trace.components(separatedBy: "\"from_waiting\":false").count - 1 == 1)
    }

    @Test func theVirtualClocksCPUTimeLeavesOutSleepsAndPreemption() {
        let clock = VirtualClock(startingAt: .seconds(5))
        clock.advance(by: .milliseconds(3))
        clock.sleep(until: .seconds(6))
        clock.preempt(for: .milliseconds(7))
        clock.spin(for: .milliseconds(2))
        #expect(clock.threadCPUTime == .milliseconds(5))
        #expect(clock.now == .seconds(6) + .milliseconds(9))
    }

    /// The real clock reads the thread's CPU clock: a sleep adds less to it than to the wall
    /// clock, and burning CPU adds to it.
    @Test func theMonotonicClockReadsTheThreadsCPUClock() {
        let clock = MonotonicClock()
        let wall = clock.now, cpu = clock.threadCPUTime
        clock.sleep(until: wall + .milliseconds(30))
        let sleptWall = clock.now - wall, sleptCPU = clock.threadCPUTime - cpu
        #expect(sleptCPU < sleptWall)
        let before = clock.threadCPUTime
        clock.spin(for: .milliseconds(5))
        #expect(clock.threadCPUTime > before)
    }
}

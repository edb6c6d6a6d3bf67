import RenderLoop
import Testing

/// A delegate that is busy for its first frames, then quiet until a timer, as an app is
/// when nothing moves: step 7 of the frame loop, on the virtual clock.
final class QuietAfterFrames: FrameDelegate {
    let clock: VirtualClock
    var busyFrames: Int
    var timer: Duration?
    var commits: [Duration] = []
    var waits: [(from: Duration, deadline: Duration?)] = []
    /// A key that "arrives" during the wait at this time (ends it early).
    var inputAt: Duration?

    init(clock: VirtualClock, busyFrames: Int, timer: Duration?) {
        self.clock = clock
        self.busyFrames = busyFrames
        self.timer = timer
    }

    func commit(_ frame: FrameInfo) {
        commits.append(frame.tick)
        clock.advance(by: .milliseconds(1))
        if busyFrames > 0 { busyFrames -= 1 }
        if let timer, frame.tick >= timer { self.timer = nil }
    }

    var demand: FrameDemand {
        if busyFrames > 0 { return .frame }
        if let timer, clock.now >= timer { return .frame }
        return .quiet(until: timer)
    }

    func waitForWork(until deadline: Duration?) {
        waits.append((clock.now, deadline))
        if let input = inputAt, deadline.map({ input < $0 }) ?? true {
            clock.sleep(until: input)
            inputAt = nil
            busyFrames = 1
            return
        }
        if let deadline { clock.sleep(until: deadline) }
    }
}

@Suite struct QuietFrameTests {
    @Test func aQuietLoopDrawsNothingUntilItsTimerAndCountsNoHitch() {
        let clock = VirtualClock()
        let delegate = QuietAfterFrames(clock: clock, busyFrames: 3, timer: .milliseconds(500))
        let scheduler = FrameScheduler(refreshRate: .hz120, clock: clock)
        scheduler.run(delegate) { delegate.commits.count < 4 }
        // Three frames, a wait to the timer, one frame at the first tick at or after it.
        #expect(delegate.commits == [.zero, RefreshRate.hz120.tickOffset(1), RefreshRate.hz120.tickOffset(2), RefreshRate.hz120.tickOffset(60)])
        #expect(delegate.waits.first?.deadline == .milliseconds(500))
        #expect(scheduler.meter.hitches == 0)
        #expect(scheduler.meter.quietTime > .milliseconds(400), "the gap is quiet time, not frames")
        #expect(scheduler.meter.hitchRatio == 0)
    }

    @Test func inputDuringAQuietWaitIsDrawnAtTheNextTick() {
        let clock = VirtualClock()
        let delegate = QuietAfterFrames(clock: clock, busyFrames: 1, timer: .seconds(10))
        delegate.inputAt = .milliseconds(100.5)
        let scheduler = FrameScheduler(refreshRate: .hz120, clock: clock)
        scheduler.run(delegate) { delegate.commits.count < 2 }
        // The key at 100.5 ms is drawn at tick 13 (108.33 ms): within one frame.
        #expect(delegate.commits == [.zero, RefreshRate.hz120.tickOffset(13)])
        #expect(delegate.commits[1] - .milliseconds(100.5) < RefreshRate.hz120.period)
        #expect(scheduler.quietWaits == 1)
    }
}

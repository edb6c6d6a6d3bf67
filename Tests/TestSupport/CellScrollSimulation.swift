import RenderLoop

/// The seeds' diagram on a virtual clock: ``SteadyScrollWorkload`` whose work advances
/// the clock, run for a number of frames.
package enum CellScrollSimulation {
    package static func run(rate: RefreshRate, cellCost: Duration, idleWork: Bool, frames: Int = 600,
                           baseCommit: Duration = .microseconds(500)) -> (HitchReport, FrameScheduler, SteadyScrollWorkload) {
        let clock = VirtualClock()
        let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
        let workload = SteadyScrollWorkload(startingAt: clock.now, cellCost: cellCost, baseCommit: baseCommit) { clock.advance(by: $0) }
        scheduler.idleWork = workload
        scheduler.isIdleWorkEnabled = idleWork
        scheduler.run(frames: frames, workload)
        return (scheduler.meter.report(), scheduler, workload)
    }
}

/// A delegate whose commit costs whatever the test says, frame by frame.
public final class ScriptedCommits: FrameDelegate {
    public let clock: VirtualClock
    public var costs: (Int) -> Duration
    public private(set) var drained = 0

    public init(clock: VirtualClock, costs: @escaping (Int) -> Duration) {
        self.clock = clock
        self.costs = costs
    }

    public func drainMailbox(for frame: FrameInfo) { drained += 1 }

    public func commit(_ frame: FrameInfo) {
        clock.advance(by: costs(frame.index))
    }
}

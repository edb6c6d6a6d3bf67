import RenderLoop

/// The seeds' diagram as a workload on a virtual clock.
///
/// Content scrolls at a steady speed, so a new cell enters the screen every
/// `framesPerCell` ticks. Every commit costs `baseCommit`; a commit that finds the
/// entering cell unprepared prepares it itself, paying `cellCost` inside the commit.
/// As an idle-work source it prepares cells ahead (up to `lookahead` beyond the one on
/// screen) in idle time, one job per cell, which is what iOS 15's cell prefetching does.
public final class CellScrollSimulation: FrameDelegate, IdleWorkSource {
    public let clock: VirtualClock
    public let framesPerCell: Int
    public let cellCost: Duration
    public let baseCommit: Duration
    public let lookahead: Int
    /// Highest cell index prepared so far; cell 0 is on screen at the start.
    public private(set) var highestPrepared = 0
    public private(set) var preparedInCommit = 0
    public private(set) var preparedIdle = 0
    private let start: Duration

    public init(clock: VirtualClock, framesPerCell: Int = 3, cellCost: Duration,
                baseCommit: Duration = .microseconds(500), lookahead: Int = 1) {
        self.clock = clock
        self.framesPerCell = framesPerCell
        self.cellCost = cellCost
        self.baseCommit = baseCommit
        self.lookahead = lookahead
        start = clock.now
    }

    /// The cell that has to be on screen in `frame`: scrolling follows time, not frames,
    /// so a skipped tick still moves the content.
    public func cellOnScreen(in frame: FrameInfo) -> Int {
        frame.refreshRate.firstTick(atOrAfter: frame.tick - start) / framesPerCell
    }

    public func commit(_ frame: FrameInfo) {
        clock.advance(by: baseCommit)
        let needed = cellOnScreen(in: frame)
        while highestPrepared < needed {
            clock.advance(by: cellCost)
            highestPrepared += 1
            preparedInCommit += 1
        }
    }

    public func nextIdleJob(for frame: FrameInfo) -> IdleJob? {
        guard highestPrepared < cellOnScreen(in: frame) + lookahead else { return nil }
        return IdleJob(kind: "cell") { [self] in
            clock.advance(by: cellCost)
            highestPrepared += 1
            preparedIdle += 1
        }
    }

    /// Runs `frames` frames of this workload and returns the scheduler's report.
    public static func run(rate: RefreshRate, cellCost: Duration, idleWork: Bool, frames: Int = 600,
                           baseCommit: Duration = .microseconds(500)) -> (HitchReport, FrameScheduler, CellScrollSimulation) {
        let clock = VirtualClock()
        let scheduler = FrameScheduler(refreshRate: rate, clock: clock)
        let simulation = CellScrollSimulation(clock: clock, cellCost: cellCost, baseCommit: baseCommit)
        scheduler.idleWork = simulation
        scheduler.isIdleWorkEnabled = idleWork
        scheduler.run(frames: frames, simulation)
        return (scheduler.meter.report(), scheduler, simulation)
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

/// The seeds' diagram as a workload: steady scrolling that brings a new cell every
/// `framesPerCell` ticks, each cell costing `cellCost` to prepare.
///
/// Every commit costs `baseCommit`; a commit that finds the entering cell unprepared
/// prepares it itself, inside the commit. As an idle-work source it prepares cells ahead
/// (up to `lookahead` beyond the one on screen), which is what iOS 15's cell prefetching
/// does. Work is "spent" through a closure: tests advance a ``VirtualClock``, the live
/// demo and benchmarks burn real CPU.
package final class SteadyScrollWorkload: FrameDelegate, IdleWorkSource {
    package let framesPerCell: Int
    package var cellCost: Duration
    package let baseCommit: Duration
    package let lookahead: Int
    /// Highest cell index prepared so far; cell 0 is on screen at the start.
    package private(set) var highestPrepared = 0
    package private(set) var preparedInCommit = 0
    package private(set) var preparedIdle = 0
    package private(set) var catchUpTimeInLastCommit: Duration = .zero
    private let spend: (Duration) -> Void
    private let start: Duration

    package init(startingAt start: Duration, framesPerCell: Int = 3, cellCost: Duration,
                baseCommit: Duration = .microseconds(500), lookahead: Int = 1, spend: @escaping (Duration) -> Void) {
        precondition(framesPerCell > 0, "SteadyScrollWorkload needs framesPerCell > 0, got \(framesPerCell)")
        self.start = start
        self.framesPerCell = framesPerCell
        self.cellCost = cellCost
        self.baseCommit = baseCommit
        self.lookahead = lookahead
        self.spend = spend
    }

    /// The cell that has to be on screen in `frame`: scrolling follows time, not frames,
    /// so a skipped tick still moves the content.
    package func cellOnScreen(in frame: FrameInfo) -> Int {
        frame.refreshRate.firstTick(atOrAfter: frame.tick - start) / framesPerCell
    }

    package func commit(_ frame: FrameInfo) {
        spend(baseCommit)
        let needed = cellOnScreen(in: frame)
        catchUpTimeInLastCommit = .zero
        while highestPrepared < needed {
            spend(cellCost)
            catchUpTimeInLastCommit += cellCost
            highestPrepared += 1
            preparedInCommit += 1
        }
    }

    package func nextIdleJob(for frame: FrameInfo) -> IdleJob? {
        guard highestPrepared < cellOnScreen(in: frame) + lookahead else { return nil }
        return IdleJob(kind: "cell") { [self] in
            spend(cellCost)
            highestPrepared += 1
            preparedIdle += 1
        }
    }
}

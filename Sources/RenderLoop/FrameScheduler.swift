/// Steps 2 and 3–4 of a frame, supplied by whoever owns the UI state: five requirements,
/// four of them with defaults (a delegate implements `commit(_:)` and what it needs).
///
/// Called on the thread that runs the scheduler (the main thread in the app), never
/// concurrently.
public protocol FrameDelegate: AnyObject {
    /// Delivers what background work posted since the last frame (see `Mailbox`).
    func drainMailbox(for frame: FrameInfo)
    /// Input, physics, layout, cell preparation, drawing and presenting.
    func commit(_ frame: FrameInfo)
    /// Whether the next tick needs a frame. ``FrameDemand/quiet(until:)`` when it would
    /// change nothing (no input handled, nothing moving or animating, nothing delivered, no
    /// idle work left): ``FrameScheduler/run(_:while:)`` then calls ``waitForWork(until:)``
    /// instead of drawing, as a display link pauses when nothing animates. Default
    /// ``FrameDemand/frame``: every tick is a frame.
    var demand: FrameDemand { get }
    /// Blocks until input arrives, a background thread wakes the loop, or `deadline`.
    func waitForWork(until deadline: Duration?)
    /// Where committed frames go when they take time to get there (a terminal); nil (the
    /// default) when a frame is done once committed.
    var output: (any FrameOutput)? { get }
}

extension FrameDelegate {
    public func drainMailbox(for frame: FrameInfo) {}
    public var demand: FrameDemand { .frame }
    public func waitForWork(until deadline: Duration?) {}
    public var output: (any FrameOutput)? { nil }
}

/// Whether the next tick needs a frame (``FrameDelegate/demand``).
public enum FrameDemand: Equatable, Sendable {
    /// Draw at the next tick.
    case frame
    /// Nothing would change: wait for work, until the next timer (`until`: a HUD refresh, a
    /// scripted key, the end of the run) or, with nil, until woken.
    case quiet(until: Duration?)
}

/// The way from a committed frame to the screen, when it takes time (a terminal that reads
/// at its own pace): the scheduler waits for ticks through it, asks it whether the last
/// frame was taken, and hands it each committed frame. `TerminalFrameDelegate`
/// (TerminalFront) implements it over a terminal.
public protocol FrameOutput: AnyObject {
    /// Step 1's wait for tick `tick`; a frame still on its way to a slow terminal keeps
    /// being handed over meanwhile.
    func waitForTick(_ tick: Duration, on clock: any FrameClock)
    /// At the start of a frame (after its tick): the terminal has not yet taken what earlier
    /// frames sent, so the last one missed its deadline (a terminal hitch).
    func isOutputBehind(at tick: Duration) -> Bool
    /// Right after the commit, before idle work: hands the frame the commit made to the
    /// terminal (the commit only queues it, as a commit hands its transaction to the render
    /// server).
    func deliverCommittedFrame()
}

/// A fixed-deadline frame loop: the core of a hitch-free scroll.
///
/// Every frame follows the same steps (the seeds' render loop, in a terminal):
/// 1. Wait for vsync tick *n* at `t0 + n·T`; ticks are computed, never accumulated, so
///    they do not drift. If idle work of the last frame ran past the tick, start at once.
/// 2. Drain the mailbox: completions posted by background work.
/// 3. Commit: the delegate reads input, advances scroll physics, lays out, prepares any
///    visible cell that is not prepared yet, draws and presents.
/// 4. Judge the commit against its deadline, tick *n+1*. Late, it is a **commit hitch**:
///    the frame is shown at the first tick at or after the commit's end, the hitch time is
///    that tick minus the deadline, and the ticks in between are skipped, not queued.
///    A frame the terminal has not taken by the next tick is a **terminal hitch**: each
///    tick at which bytes of earlier frames still wait (step 1, ``FrameOutput/isOutputBehind(at:)``)
///    counts one period of hitch time, and the delegate coalesces that frame (D-039).
/// 5. Idle time: until the next tick, run idle jobs (e.g. cell prefetch), each only when
///    its predicted cost ends before the *following* deadline minus the predicted cost of
///    the next commit. So a job may run into the next frame, delaying a commit that is
///    predicted short, yet that commit still meets its deadline: the seeds' "up to twice
///    the time to prepare a cell".
/// 6. Back to 1, which sleeps until the next tick.
/// 7. When the delegate is quiet (nothing would change), no frame is drawn: the loop waits
///    for input, a worker's wake-up or the delegate's next timer, then resumes at the first
///    tick after it. Quiet gaps are neither frames nor hitches, and the hitch ratio leaves
///    them out of the time it divides by.
///
/// Not thread-safe by design: it belongs to the main thread with the UI state it drives.
public final class FrameScheduler {
    /// The clock ticks are computed on: a ``MonotonicClock`` in an app, a ``VirtualClock`` in tests.
    public let clock: any FrameClock
    /// The rate of the ticks (``changeRefreshRate(to:)`` changes it at the next frame).
    public private(set) var refreshRate: RefreshRate
    /// Offers the work for step 5; nil or disabled means frames just sleep when done.
    public var idleWork: (any IdleWorkSource)?
    /// Whether idle work runs at all (off: prefetching off, to compare).
    public var isIdleWorkEnabled = true
    /// A guard against a source that offers zero-cost jobs forever.
    public var maxIdleJobsPerFrame = 256
    /// Every frame's figures: hitches of both kinds, commit times, idle work.
    public private(set) var meter: HitchMeter
    /// How many frames' whole records the meter keeps for a trace; zero in a session that
    /// writes none, so an hours-long session holds only the meter's bounded aggregates.
    public let tracedFrameLimit: Int
    /// When set, the first frame is kept apart in ``launchFrame`` and the meter counts
    /// from the second: the launch (first layout, every visible cell configured, a full
    /// paint) is reported on its own, as Apple's hitch ratio counts frames while scrolling.
    public var keepsLaunchFrameApart = false
    /// The first frame, with ``keepsLaunchFrameApart``, once it ran.
    public var launchFrame: FrameRecord? { launch.frame }
    /// With ``keepsLaunchFrameApart``: ticks at which the terminal was still taking what the
    /// launch frame sent (a full paint). They belong to the launch, as its commit does, and
    /// are not terminal hitches.
    public var launchOutputTicks: Int { launch.outputTicks }
    private var launch = LaunchFrameState()
    private var ticks: TickGrid
    private var predictors = CostPredictors()

    /// The launch frame kept apart from the meter, and the terminal ticks its paint took.
    private struct LaunchFrameState {
        var frame: FrameRecord?
        var outputTicks = 0
        /// The terminal took the launch paint: later behind ticks are terminal hitches again.
        var delivered = false
    }

    /// The drift-free tick grid (a base and an index, never accumulated) and the frames run on it.
    private struct TickGrid {
        /// Time of tick 0 of the current rate (moves when the rate changes).
        var base: Duration
        /// Index, counted from `base`, of the tick the next frame starts at.
        var nextIndex = 0
        var frameIndex = 0
        /// A rate change waiting for the next frame, so the frame in progress keeps its cadence.
        var pendingRate: RefreshRate?
    }

    /// What step 5 budgets with: the next commit's cost and each idle job kind's.
    private struct CostPredictors {
        var commit = CostPredictor()
        var jobs: [String: CostPredictor] = [:]
    }

    /// A scheduler ticking at `refreshRate` on `clock`.
    /// - Parameters:
    ///   - refreshRate: the rate of the ticks (changed later by ``changeRefreshRate(to:)``).
    ///   - clock: a ``MonotonicClock`` in an app, a ``VirtualClock`` in tests.
    ///   - start: time of the first tick; defaults to the clock's current time.
    ///   - tracedFrameLimit: records kept whole for ``HitchMeter/records`` (a trace).
    public init(refreshRate: RefreshRate = .hz60, clock: any FrameClock, startingAt start: Duration? = nil,
                tracedFrameLimit: Int = HitchMeter.defaultRetainedRecordLimit) {
        self.refreshRate = refreshRate
        self.clock = clock
        self.tracedFrameLimit = tracedFrameLimit
        meter = HitchMeter(retainedRecordLimit: tracedFrameLimit)
        ticks = TickGrid(base: start ?? clock.now)
    }

    /// Time of the tick the next frame starts at.
    public var nextTick: Duration { tick(ticks.nextIndex) }

    /// The predicted cost of the next commit (moving mean of the last few), if any ran.
    public var predictedCommitCost: Duration? { predictors.commit.estimate }

    /// The predicted cost of an idle job of `kind`, if one ran.
    public func predictedCost(ofJobKind kind: String) -> Duration? { predictors.jobs[kind]?.estimate }

    /// Switches cadence from the next frame on; ticks stay drift-free from there. Safe to
    /// call from inside a commit: the frame being produced finishes on the old cadence.
    public func changeRefreshRate(to rate: RefreshRate) {
        ticks.pendingRate = rate == refreshRate ? nil : rate
    }

    /// The rate the next frame will run at.
    public var upcomingRefreshRate: RefreshRate { ticks.pendingRate ?? refreshRate }

    private func applyPendingRate() {
        guard let rate = ticks.pendingRate else { return }
        ticks.pendingRate = nil
        ticks.base = nextTick
        ticks.nextIndex = 0
        refreshRate = rate
    }

    /// Produces one frame: steps 1 to 5 above. Returns its record (also kept by ``meter``).
    @discardableResult
    public func runFrame(_ delegate: some FrameDelegate) -> FrameRecord {
        applyPendingRate()
        let tickIndex = ticks.nextIndex
        let tickTime = tick(tickIndex)
        let waitStart = clock.now, waitStartCPU = clock.threadCPUTime
        let output = delegate.output
        if let output { output.waitForTick(tickTime, on: clock) } else { clock.sleep(until: tickTime) }
        var behind = output?.isOutputBehind(at: tickTime) ?? false
        if keepsLaunchFrameApart && launch.frame != nil && !launch.delivered {
            if behind { launch.outputTicks += 1 } else { launch.delivered = true }
            behind = false
        }

        let info = FrameInfo(index: ticks.frameIndex, tick: tickTime, deadline: tick(tickIndex + 1), refreshRate: refreshRate)
        let commitStart = clock.now, commitStartCPU = clock.threadCPUTime
        delegate.drainMailbox(for: info)
        let drainEnd = clock.now
        delegate.commit(info)
        let commitEnd = clock.now, commitCPU = clock.threadCPUTime - commitStartCPU
        // The frame's own work from its tick (FrameRecord.workFromTick): idle work that ran
        // past the tick, the CPU the wait used once the tick had passed (at most), the commit.
        let overrun = max(waitStart - tickTime, .zero)
        let waitedPastTick = max(commitStart - max(tickTime, waitStart), .zero)
        let workFromTick = overrun + min(commitStartCPU - waitStartCPU, waitedPastTick) + commitCPU
        output?.deliverCommittedFrame()
        // Catch-up work (cells prepared in the commit because idle time had not) is left out
        // of the prediction: counted in, long catch-up commits would inflate it so that no
        // idle job ever fits, and commits would stay long forever.
        let catchUp = idleWork?.catchUpTimeInLastCommit ?? .zero
        predictors.commit.record(max(commitEnd - commitStart - catchUp, .zero))

        let shownIndex = max(tickIndex + 1, refreshRate.firstTick(atOrAfter: commitEnd - ticks.base))
        let presentedAt = tick(shownIndex)
        ticks.nextIndex = shownIndex
        ticks.frameIndex += 1

        let (jobs, declined) = runIdleJobs(for: info)
        var record = FrameRecord(
            index: info.index, tickIndex: tickIndex, tick: tickTime, deadline: info.deadline,
            commitStart: commitStart, drainEnd: drainEnd, commitEnd: commitEnd,
            presentedAt: presentedAt, hitchTime: presentedAt - info.deadline,
            skippedTicks: shownIndex - tickIndex - 1, idleJobs: jobs, declinedJobs: declined
        )
        record.terminalBehind = behind
        record.period = refreshRate.period
        record.commitCPU = commitCPU
        record.workFromTick = workFromTick
        if keepsLaunchFrameApart && launch.frame == nil { launch.frame = record } else { meter.record(record) }
        return record
    }

    /// Runs frames until `shouldContinue` says stop (checked before each frame), waiting
    /// instead of drawing while the delegate is quiet (step 7).
    public func run(_ delegate: some FrameDelegate, while shouldContinue: () -> Bool) {
        while shouldContinue() {
            if case .quiet(let until) = delegate.demand {
                waitWhileQuiet(delegate, until: until)
            } else {
                runFrame(delegate)
            }
        }
    }

    /// Quiet waits so far (each a wait that ended with input, a wake-up or a timer).
    public private(set) var quietWaits = 0

    /// Step 7: sleeps until something may need a frame; the next frame starts at the first
    /// tick at or after the wake-up, on the same drift-free grid.
    public func waitWhileQuiet(_ delegate: some FrameDelegate, until deadline: Duration?) {
        applyPendingRate()
        delegate.waitForWork(until: deadline)
        quietWaits += 1
        resumeAfterPause()
    }

    /// After time away from frames (a quiet wait, or the process stopped by Ctrl-Z): that
    /// time counts as quiet, not as a hitch, and the next frame starts at the first tick
    /// from now, on the same drift-free grid.
    public func resumeAfterPause() {
        let resumeIndex = max(ticks.nextIndex, refreshRate.firstTick(atOrAfter: clock.now - ticks.base))
        meter.recordQuiet(tick(resumeIndex) - tick(ticks.nextIndex))
        ticks.nextIndex = resumeIndex
    }

    /// Runs exactly `count` frames.
    public func run(frames count: Int, _ delegate: some FrameDelegate) {
        for _ in 0..<count { runFrame(delegate) }
    }

    /// Forgets recorded frames (e.g. after a warm-up); predictions are kept.
    public func resetMeter() { meter = HitchMeter(retainedRecordLimit: tracedFrameLimit) }

    /// Step 5. The budget for a job ends at the deadline of the *next* frame minus that
    /// frame's predicted commit, so one job may cross the next tick when the next commit
    /// is short; no job starts once the next tick has passed.
    private func runIdleJobs(for frame: FrameInfo) -> ([IdleJobRecord], Int) {
        guard isIdleWorkEnabled, let source = idleWork else { return ([], 0) }
        let nextTickTime = nextTick
        let budgetEnd = tick(ticks.nextIndex + 1) - (predictors.commit.estimate ?? .zero)
        var jobs: [IdleJobRecord] = []
        var declined = 0
        while jobs.count < maxIdleJobsPerFrame, clock.now < nextTickTime,
              let job = source.nextIdleJob(for: frame) {
            let predicted = predictors.jobs[job.kind]?.estimate
            let start = clock.now
            guard start + (predicted ?? .zero) <= budgetEnd else {
                declined += 1
                break
            }
            job.run()
            let end = clock.now
            predictors.jobs[job.kind, default: CostPredictor()].record(end - start)
            jobs.append(IdleJobRecord(kind: job.kind, start: start, end: end, predicted: predicted))
        }
        return (jobs, declined)
    }

    private func tick(_ index: Int) -> Duration {
        ticks.base + refreshRate.tickOffset(index)
    }
}

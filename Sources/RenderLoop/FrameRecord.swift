/// Everything measured about one frame; the hitch meter and the trace are built from these.
public struct FrameRecord: Sendable, Hashable {
    /// Frames before this one (skipped ticks are not frames).
    public let index: Int
    /// Index of the vsync tick this frame started at (ticks skipped after a hitch are gaps).
    public let tickIndex: Int
    /// The time of that tick: when the frame's work could start.
    public let tick: Duration
    /// The tick by which the commit had to end.
    public let deadline: Duration
    /// Start of frame work (mailbox drain included); later than `tick` when idle work of
    /// the previous frame ran into this one.
    public let commitStart: Duration
    /// When the mailbox drain ended and the commit proper began.
    public let drainEnd: Duration
    /// When the commit ended (the frame handed to the terminal).
    public let commitEnd: Duration
    /// The vsync at which this frame's content reached the screen.
    public let presentedAt: Duration
    /// `presentedAt - deadline`: zero for a frame on time.
    public let hitchTime: Duration
    /// Ticks passed over because this commit ended late.
    public let skippedTicks: Int
    /// The idle jobs run after the commit, in order.
    public let idleJobs: [IdleJobRecord]
    /// Idle jobs that were ready but predicted not to fit.
    public let declinedJobs: Int
    /// At this frame's tick the terminal had not yet taken the frame before (it missed its
    /// deadline: a **terminal hitch** of one tick; this frame was coalesced into a later one).
    public var terminalBehind = false
    /// The period of the tick, counted as terminal hitch time when `terminalBehind`.
    public var period: Duration = .zero
    /// The CPU time the frame loop's thread spent from `commitStart` to `commitEnd` (the
    /// clock's ``FrameClock/threadCPUTime``); less than ``commitDuration`` by the time it
    /// waited for a core.
    public var commitCPU: Duration = .zero
    /// The frame's own work, counted from its tick: the previous frame's idle work that ran
    /// past the tick (all of it, on the wall clock), what waiting for the tick did after it
    /// on the CPU, and the commit's CPU time. Where the thread's CPU time cannot be split
    /// from waiting, this counts the waiting as work.
    public var workFromTick: Duration = .zero

    /// A late commit whose own work would have fit between its tick and its deadline: the
    /// frame was late because its thread waited (woke late, or was preempted mid-commit by
    /// another thread holding the core), not because it did too much. On a busy machine
    /// these are the kernel's to give; the others are the app's to fix.
    public var isHitchFromWaiting: Bool { isHitch && tick + workFromTick <= deadline }

    /// How long the commit took.
    public var commitDuration: Duration { commitEnd - commitStart }
    /// The commit ended after its deadline.
    public var isHitch: Bool { hitchTime > .zero }
    /// Hitch time of either kind: the commit's lateness, plus a tick the terminal was behind.
    public var totalHitchTime: Duration { hitchTime + (terminalBehind ? period : .zero) }
    /// Time the idle jobs took, together.
    public var idleWorkTime: Duration { idleJobs.reduce(.zero) { $0 + $1.cost } }
    /// How many idle jobs ran.
    public var jobsRun: Int { idleJobs.count }
}

/// One small, unsplittable piece of work to do in the idle part of a frame, such as
/// preparing the next cell in the scroll direction.
public struct IdleJob {
    /// Jobs of one kind share a cost prediction (e.g. "cell", "prefetch").
    public let kind: String
    /// The work; it updates its source's state when it runs.
    public let run: () -> Void

    /// A job of `kind` that does `run`.
    public init(kind: String, run: @escaping () -> Void) {
        self.kind = kind
        self.run = run
    }
}

/// Offers the scheduler the work it would like done when a frame has time to spare.
///
/// The scheduler asks, looks at the job's predicted cost, and runs it only when it fits
/// before the next frame's deadline minus that frame's predicted commit. Asking must not
/// consume anything: a declined job is offered again next frame. The job itself updates
/// the source's state when it runs.
public protocol IdleWorkSource: AnyObject {
    /// The job it would like run next in `frame`'s idle time, or nil when nothing is left.
    /// Asking consumes nothing: a job the scheduler declines is asked for again.
    func nextIdleJob(for frame: FrameInfo) -> IdleJob?
    /// Time the last commit spent doing this source's work because idle time had not
    /// (preparing cells that were not prefetched): the scheduler leaves it out of its
    /// prediction of the next commit. Default zero.
    var catchUpTimeInLastCommit: Duration { get }
}

extension IdleWorkSource {
    public var catchUpTimeInLastCommit: Duration { .zero }
}

/// What happened to one idle job, for the trace and the meter.
public struct IdleJobRecord: Sendable, Hashable {
    /// The job's kind.
    public let kind: String
    /// When it started.
    public let start: Duration
    /// When it ended.
    public let end: Duration
    /// What its kind's moving average predicted before it ran (nil: no sample yet).
    public let predicted: Duration?

    /// How long it took.
    public var cost: Duration { end - start }
}

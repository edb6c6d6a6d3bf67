/// One small, unsplittable piece of work to do in the idle part of a frame, such as
/// preparing the next cell in the scroll direction.
public struct IdleJob {
    /// Jobs of one kind share a cost prediction (e.g. "cell", "prefetch").
    public let kind: String
    public let run: () -> Void

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
    func nextIdleJob(for frame: FrameInfo) -> IdleJob?
}

/// What happened to one idle job, for the trace and the meter.
public struct IdleJobRecord: Sendable, Hashable {
    public let kind: String
    public let start: Duration
    public let end: Duration
    public let predicted: Duration?

    public var cost: Duration { end - start }
}

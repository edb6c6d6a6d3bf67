/// What a frame's delegate knows about the frame it is asked to produce.
public struct FrameInfo: Sendable, Hashable {
    /// Frames produced so far; 0 for the first. Skipped ticks do not get an index.
    public let index: Int
    /// The vsync tick at which this frame's work may start.
    public let tick: Duration
    /// The tick by which the commit must end: the next one after `tick`.
    public let deadline: Duration
    /// The rate the frame runs at (it may change between frames).
    public let refreshRate: RefreshRate

    /// The frame time the app should animate to (scroll physics use the tick, not the
    /// wall-clock start, so motion is smooth even when a commit starts late).
    public var presentationTime: Duration { deadline }
}

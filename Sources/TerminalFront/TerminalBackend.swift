import CellCanvas
import CoreKit

/// What a screen needs from a terminal: its size and colours, keys in, canvases out, and
/// the bytes that cost.
///
/// ``NcursesBackend`` is the real terminal (or ncurses writing into /dev/null, headless);
/// ``TestBackend`` keeps the screen in memory, so a whole app runs inside a test on a
/// virtual clock and its screen can be read as rows of text (as ratatui's `TestBackend`).
/// Main thread only.
public protocol TerminalBackend: AnyObject {
    /// Size in cells.
    var size: (rows: Int, columns: Int) { get }
    /// What colours the terminal shows.
    var capability: ColorCapability { get }
    /// Frames are bracketed by DEC mode 2026, so the terminal shows each one whole.
    var supportsSynchronizedOutput: Bool { get }
    /// What the terminal answered at start (graphics, pixel size); nothing when headless.
    var probed: TerminalProbe.Answers { get }
    /// No terminal: measuring into a sink.
    var isHeadless: Bool { get }
    /// The next pending key, or nil (never blocks).
    func nextKey() -> Key?
    /// Sleeps until input is waiting, `wake` is signalled, a signal arrives, or `timeout`
    /// (nil: no limit) has passed; true unless it timed out. Call only after ``nextKey()``
    /// has returned nil (keys already read are not input waiting).
    func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool
    /// Shows `canvas`, writing only what changed. `scrolled` says which rows moved by how
    /// many since the last frame (a hint: wrong, it costs bytes, never correctness).
    func present(_ canvas: Canvas, scrolled: (rows: Range<Int>, by: Int)?)
    /// Writes escape sequences that are not cells (image transmissions and deletions),
    /// before the next frame's cells; counted in ``bytesWritten``.
    func sendGraphics(_ bytes: [UInt8])
    /// Draws `PixelCell` cells as pixels from now on (sixel).
    func enablePixelImages()
    /// The images pixel cells may name from now on, and ids none will name again.
    func updatePixelImages(defined: [PixelImage], forgotten: [UInt32])
    /// Pixel bytes a frame may send; image rows past it show symbols until a later frame.
    var pixelBytesPerFrame: Int { get set }
    /// The last frame left image rows as symbols for want of budget (another frame is due).
    var hasDeferredPixels: Bool { get }
    /// Forgets what is on screen: the next frame writes every cell.
    func invalidate()

    // The terminal as a consumer with a rate (D-039).

    /// The terminal has not taken everything it was sent, or a frame was coalesced since:
    /// the loop must keep ticking (it is not quiet) until the screen has caught up.
    var isOutputBehind: Bool { get }
    /// At a tick: writes what the terminal takes now, measures its rate, and says whether
    /// bytes of earlier frames are still waiting (the last frame missed its deadline: a
    /// terminal hitch).
    func observeOutput(at time: Duration) -> Bool
    /// Until `deadline` (on the clock `now` reads): hands the terminal what it takes as it
    /// takes it; returns early when nothing is left (at once when nothing is pending: the
    /// caller sleeps the rest). Keys wait for the tick, as they always do.
    func waitForOutput(until deadline: Duration, now: () -> Duration)
    /// Writes what the terminal takes now of the frames queued, without waiting (after a
    /// commit: the commit only queues its frame).
    func deliverOutput()
    /// Optional bytes (pixels, image transmissions) the next frame may send at `hertz`,
    /// planned from the measured rate, never above `ceiling` bytes a second; 0 while behind.
    func optionalBytesPerFrame(hertz: Double, ceiling: Int) -> Int
    /// The app held optional bytes of its own back this frame for want of budget (image
    /// transmissions waiting): if the terminal keeps up, the budget grows, as it does for
    /// pixel rows left as symbols. Without it, a budget cut by a miss never grew back while
    /// only transmissions waited, and their thumbnails stayed placeholders.
    func noteOptionalBytesHeldBack()
    /// What the output cost and how the terminal kept up, for the report.
    var outputStatistics: OutputStatistics { get }
    /// Bytes the last frame sent, and all frames so far.
    var bytesInLastFrame: Int { get }
    /// Bytes all frames sent so far.
    var bytesWritten: Int { get }
    /// The bytes a whole paint of `canvas` from a clear screen takes, measured without
    /// sending it (not added to ``bytesWritten``): the yardstick for what scrolling frames send.
    func measureFullPaint(_ canvas: Canvas) -> Int
    /// True once the terminal has gone away (input hung up).
    var isHungUp: Bool { get }
    /// Gives the terminal back as it was; safe to call more than once.
    func end()
    /// Ctrl-Z: the terminal back to the shell, the process stopped until `fg`, then the
    /// next frame repaints everything.
    func suspend()
}

extension TerminalBackend {
    /// Shows `canvas` with no scroll hint (the diff still finds what changed).
    public func present(_ canvas: Canvas) { present(canvas, scrolled: nil) }
}

/// How the terminal kept up with the frames sent to it.
public struct OutputStatistics: Sendable, Equatable {
    /// Frames not sent because the terminal had not taken the one before.
    public var coalescedFrames = 0
    /// The most bytes waiting for the terminal at once.
    public var pendingBytesMax = 0
    /// The terminal's rate while it was behind (nil: it never was), bytes a second.
    public var drainMedian: Double?
    /// The slowest rate measured while it was behind, bytes a second.
    public var drainMinimum: Double?
    /// Intervals measured.
    public var drainSamples = 0
    /// Times the colour pairs ran out (an 8- or 16-colour terminal showing mosaics).
    public var colorPairRounds = 0
    /// Pairs freed for other colours by those rounds (none a cell on screen showed).
    public var recycledColorPairs = 0
    /// Cells drawn in the nearest pair because every pair was on screen.
    public var approximatedCells = 0

    /// Nothing measured yet.
    public init() {}
}

/// The real terminal through ncurses: a ``TerminalSession`` and its ``CanvasPresenter``.
public final class NcursesBackend: TerminalBackend {
    /// The terminal session (ncurses, the writer, the start-up probe's answers).
    public let session: TerminalSession
    private let presenter: CanvasPresenter

    private init(session: TerminalSession) {
        self.session = session
        presenter = CanvasPresenter(session: session)
    }

    /// Takes over the terminal on standard input and output; `delivery` says who writes to it.
    public static func start(delivery: TerminalWriter.Delivery = .recommended) throws(TerminalError) -> NcursesBackend {
        let session = TerminalSession()
        session.delivery = delivery
        try session.start()
        return NcursesBackend(session: session)
    }

    /// ncurses writing into /dev/null at a fixed size, its bytes still counted.
    public static func startHeadless(rows: Int, columns: Int) throws(TerminalError) -> NcursesBackend {
        let session = TerminalSession()
        try session.startHeadless(rows: rows, columns: columns)
        return NcursesBackend(session: session)
    }

    public var size: (rows: Int, columns: Int) { session.size }
    public var capability: ColorCapability { session.capability }
    public var supportsSynchronizedOutput: Bool { session.supportsSynchronizedOutput }
    public var probed: TerminalProbe.Answers { session.probed }
    public var isHeadless: Bool { session.isHeadless }
    public func nextKey() -> Key? { session.nextKey() }
    public func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool { session.waitForInput(wake: wake, timeout: timeout) }
    public func present(_ canvas: Canvas, scrolled: (rows: Range<Int>, by: Int)?) { presenter.present(canvas, scrolled: scrolled) }
    public func invalidate() { presenter.invalidate() }

    private var pacing = OutputPacing()
    /// The last ceiling the app planned optional bytes under (a miss cuts from there).
    private var optionalCeiling = Int.max
    private var writer: TerminalWriter { session.writer }
    public var isOutputBehind: Bool { writer.isBehind || presenter.hasCoalescedFrame }

    public func observeOutput(at time: Duration) -> Bool {
        writer.pump()
        let behind = writer.isBehind
        pacing.observe(at: time, bytesTaken: writer.bytesTaken, behind: behind, ceiling: optionalCeiling, moreToSend: presenter.hasDeferredPixels)
        return behind
    }

    public func noteOptionalBytesHeldBack() { pacing.noteHeldBack() }

    public func waitForOutput(until deadline: Duration, now: () -> Duration) {
        writer.wait(until: deadline, now: now)
    }

    public func deliverOutput() { writer.pump() }

    public func optionalBytesPerFrame(hertz: Double, ceiling: Int) -> Int {
        optionalCeiling = ceiling
        return writer.isBehind ? 0 : pacing.optionalBytesPerFrame(hertz: hertz, ceiling: ceiling, pending: writer.pendingBytes)
    }

    public var outputStatistics: OutputStatistics {
        var statistics = OutputStatistics()
        statistics.coalescedFrames = presenter.coalescedFrames
        statistics.pendingBytesMax = writer.pendingBytesMax
        statistics.colorPairRounds = presenter.pairRecyclingRounds
        statistics.recycledColorPairs = presenter.recycledPairs
        statistics.approximatedCells = presenter.approximatedCells
        statistics.drainMedian = pacing.medianRate
        statistics.drainMinimum = pacing.minimumRate
        statistics.drainSamples = pacing.sampleCount
        return statistics
    }
    public func sendGraphics(_ bytes: [UInt8]) { presenter.sendGraphics(bytes) }
    public func enablePixelImages() { presenter.enablePixelImages() }
    public func updatePixelImages(defined: [PixelImage], forgotten: [UInt32]) { presenter.updatePixelImages(defined: defined, forgotten: forgotten) }
    public var pixelBytesPerFrame: Int {
        get { presenter.pixelBytesPerFrame }
        set { presenter.pixelBytesPerFrame = newValue }
    }
    public var hasDeferredPixels: Bool { presenter.hasDeferredPixels }
    /// Images kept for pixel cells, and the image rows the last frame drew.
    public var pixelImageCount: Int { presenter.pixelImageCount }
    /// Image rows the last frame drew as pixels.
    public var pixelStripsInLastFrame: Int { presenter.pixelStripsInLastFrame }
    public var bytesInLastFrame: Int { presenter.bytesInLastFrame }
    /// Bytes all frames sent so far.
    public var bytesWritten: Int { presenter.bytesWritten }
    public func measureFullPaint(_ canvas: Canvas) -> Int { presenter.measureFullPaint(canvas) }
    public var isHungUp: Bool { session.isHungUp }
    public func end() { session.end() }
    public func suspend() {
        session.suspend()
        presenter.invalidate()
    }
}

import CellCanvas
import CoreKit

/// What a screen needs from a terminal: eleven requirements, as ratatui's `Backend` has
/// about ten. Its size and traits, keys in, canvases out, and two parts of their own: the
/// pixel and image output (``TerminalImageOutput``) and the terminal as a consumer with a
/// rate (``TerminalOutputFlow``). Everything else a caller reads goes through those
/// (the forwarding members below).
///
/// ``NcursesBackend`` is the real terminal (or ncurses writing into /dev/null, headless);
/// ``TestBackend`` keeps the screen in memory, so a whole app runs inside a test on a
/// virtual clock and its screen can be read as rows of text (as ratatui's `TestBackend`).
/// Main thread only.
public protocol TerminalBackend: AnyObject {
    /// Size in cells.
    var size: (rows: Int, columns: Int) { get }
    /// What the terminal is: its colours, synchronized output, what it answered at start.
    var traits: TerminalTraits { get }
    /// The next pending key, or nil (never blocks).
    func nextKey() -> Key?
    /// Sleeps until input is waiting, `wake` is signalled, a signal arrives, or `timeout`
    /// (nil: no limit) has passed; true unless it timed out. Call only after ``nextKey()``
    /// has returned nil (keys already read are not input waiting).
    func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool
    /// Shows `canvas`, writing only what changed. `scrolled` says which rows moved by how
    /// many since the last frame (a hint: wrong, it costs bytes, never correctness).
    func present(_ canvas: Canvas, scrolled: (rows: Range<Int>, by: Int)?)
    /// Forgets what is on screen: the next frame writes every cell.
    func invalidate()
    /// Pixels and images: sixel rows, kitty transmissions and their budget.
    var imageOutput: any TerminalImageOutput { get }
    /// The terminal as a consumer with a rate (D-039): what it has taken, what it costs.
    var outputFlow: any TerminalOutputFlow { get }
    /// True once the terminal has gone away (input hung up).
    var isHungUp: Bool { get }
    /// Gives the terminal back as it was; safe to call more than once.
    func end()
    /// Ctrl-Z: the terminal back to the shell, the process stopped until `fg`, then the
    /// next frame repaints everything.
    func suspend()
}

/// What the terminal is, as the start-up found it.
public struct TerminalTraits: Sendable {
    /// What colours the terminal shows.
    public var capability: ColorCapability
    /// Frames are bracketed by DEC mode 2026, so the terminal shows each one whole.
    public var supportsSynchronizedOutput: Bool
    /// What the terminal answered at start (graphics, pixel size); nothing when headless.
    public var probed: TerminalProbe.Answers
    /// No terminal: measuring into a sink.
    public var isHeadless: Bool

    /// Traits as a backend found them.
    public init(capability: ColorCapability, supportsSynchronizedOutput: Bool, probed: TerminalProbe.Answers, isHeadless: Bool) {
        self.capability = capability
        self.supportsSynchronizedOutput = supportsSynchronizedOutput
        self.probed = probed
        self.isHeadless = isHeadless
    }
}

/// Pixels and images a terminal draws beyond cells (a backend's ``TerminalBackend/imageOutput``).
public protocol TerminalImageOutput: AnyObject {
    /// Writes escape sequences that are not cells (image transmissions and deletions),
    /// before the next frame's cells; counted in the bytes written.
    func sendGraphics(_ bytes: [UInt8])
    /// Draws `PixelCell` cells as pixels from now on (sixel).
    func enablePixelImages()
    /// The images pixel cells may name from now on, and ids none will name again.
    func updatePixelImages(defined: [PixelImage], forgotten: [UInt32])
    /// Pixel bytes a frame may send; image rows past it show symbols until a later frame.
    var pixelBytesPerFrame: Int { get set }
    /// The last frame left image rows as symbols, for want of budget or waiting while the
    /// content scrolls (another frame is due).
    var hasDeferredPixels: Bool { get }
    /// The content scrolls this frame (a fling, an animated page): a picture only partly on
    /// the screen waits, as symbols, until it is whole there and goes as one image.
    var isScrolling: Bool { get set }
}

/// The terminal as a consumer with a rate (D-039; a backend's ``TerminalBackend/outputFlow``).
public protocol TerminalOutputFlow: AnyObject {
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
    /// Bytes the last frame sent.
    var bytesInLastFrame: Int { get }
    /// Bytes all frames sent so far.
    var bytesWritten: Int { get }
    /// The bytes a whole paint of `canvas` from a clear screen takes, measured without
    /// sending it (not added to ``bytesWritten``): the yardstick for what scrolling frames send.
    func measureFullPaint(_ canvas: Canvas) -> Int
}

/// The parts' members, read through the backend (one name per fact, wherever it lives).
extension TerminalBackend {
    /// Shows `canvas` with no scroll hint (the diff still finds what changed).
    public func present(_ canvas: Canvas) { present(canvas, scrolled: nil) }

    /// What colours the terminal shows.
    public var capability: ColorCapability { traits.capability }
    /// Frames are bracketed by DEC mode 2026.
    public var supportsSynchronizedOutput: Bool { traits.supportsSynchronizedOutput }
    /// What the terminal answered at start.
    public var probed: TerminalProbe.Answers { traits.probed }
    /// No terminal: measuring into a sink.
    public var isHeadless: Bool { traits.isHeadless }

    /// See ``TerminalImageOutput/sendGraphics(_:)``.
    public func sendGraphics(_ bytes: [UInt8]) { imageOutput.sendGraphics(bytes) }
    /// See ``TerminalImageOutput/enablePixelImages()``.
    public func enablePixelImages() { imageOutput.enablePixelImages() }
    /// See ``TerminalImageOutput/updatePixelImages(defined:forgotten:)``.
    public func updatePixelImages(defined: [PixelImage], forgotten: [UInt32]) { imageOutput.updatePixelImages(defined: defined, forgotten: forgotten) }
    /// See ``TerminalImageOutput/pixelBytesPerFrame``.
    public var pixelBytesPerFrame: Int {
        get { imageOutput.pixelBytesPerFrame }
        set { imageOutput.pixelBytesPerFrame = newValue }
    }
    /// See ``TerminalImageOutput/hasDeferredPixels``.
    public var hasDeferredPixels: Bool { imageOutput.hasDeferredPixels }
    /// See ``TerminalImageOutput/isScrolling``.
    public var isScrolling: Bool {
        get { imageOutput.isScrolling }
        set { imageOutput.isScrolling = newValue }
    }

    /// See ``TerminalOutputFlow/isOutputBehind``.
    public var isOutputBehind: Bool { outputFlow.isOutputBehind }
    /// See ``TerminalOutputFlow/observeOutput(at:)``.
    public func observeOutput(at time: Duration) -> Bool { outputFlow.observeOutput(at: time) }
    /// See ``TerminalOutputFlow/waitForOutput(until:now:)``.
    public func waitForOutput(until deadline: Duration, now: () -> Duration) { outputFlow.waitForOutput(until: deadline, now: now) }
    /// See ``TerminalOutputFlow/deliverOutput()``.
    public func deliverOutput() { outputFlow.deliverOutput() }
    /// See ``TerminalOutputFlow/optionalBytesPerFrame(hertz:ceiling:)``.
    public func optionalBytesPerFrame(hertz: Double, ceiling: Int) -> Int { outputFlow.optionalBytesPerFrame(hertz: hertz, ceiling: ceiling) }
    /// See ``TerminalOutputFlow/noteOptionalBytesHeldBack()``.
    public func noteOptionalBytesHeldBack() { outputFlow.noteOptionalBytesHeldBack() }
    /// See ``TerminalOutputFlow/outputStatistics``.
    public var outputStatistics: OutputStatistics { outputFlow.outputStatistics }
    /// See ``TerminalOutputFlow/bytesInLastFrame``.
    public var bytesInLastFrame: Int { outputFlow.bytesInLastFrame }
    /// See ``TerminalOutputFlow/bytesWritten``.
    public var bytesWritten: Int { outputFlow.bytesWritten }
    /// See ``TerminalOutputFlow/measureFullPaint(_:)``.
    public func measureFullPaint(_ canvas: Canvas) -> Int { outputFlow.measureFullPaint(canvas) }
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
    /// Parse requests the terminal answered (``ParsePacing``), and those it did not within
    /// a second.
    public var parseAnswers = 0, parseRequestsLost = 0
    /// The median and the worst time from handing a frame with pixels over to the
    /// terminal's answer (nil: none was timed).
    public var parseRoundTripMedian: Duration?, parseRoundTripWorst: Duration?
    /// Pixel images sent (sixel, iTerm2): whole pictures, and strips of one row of cells.
    /// A terminal pays for each image beside its bytes.
    public var wholePicturesSent = 0, pixelStripsSent = 0
    /// What an image cost the terminal beside its bytes, in bytes, as learned from its
    /// answers at the end (``ParseCostModel``; nil: not learned, the prior stood), and the
    /// batches fitted.
    public var imagePrice: Int?, batchesFitted = 0
    /// The price the last fit gave and its standard error, in bytes, taken or not (nil: the
    /// batches could not tell bytes from images).
    public var imagePriceFitted: Int?, imagePriceError: Int?

    /// Nothing measured yet.
    public init() {}
}


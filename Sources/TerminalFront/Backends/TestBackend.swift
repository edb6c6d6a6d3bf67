import CellCanvas
import CoreKit

/// A terminal in memory, for tests: keys are queued by the test, every presented canvas
/// lands on ``screen``, and bytes are counted by a fixed model of what an ANSI terminal
/// would be sent, so byte figures are exact and repeatable.
///
/// The byte model: each changed cell costs its glyph's UTF-8 bytes; a cell that does not
/// follow the previous one written costs a cursor move (`ESC [ row ; col H`); a change of
/// style costs `ESC [ 0 ; 38;5;F ; 48;5;B m` with that cell's palette numbers; a scrolled
/// region costs a scroll-region set, the scroll and the reset. Synchronized output adds
/// its 16 bytes a frame.
///
/// Which cells a frame sends, which rows scroll and when a frame is coalesced are decided by
/// ``ScreenDiff``, the same code ``CanvasPresenter`` runs: only the emitting differs.
///
/// By default the terminal takes every byte at once. ``simulateLink(bytesPerSecond:now:)``
/// makes it a consumer with a rate in the test's (virtual) time: frames it has not taken are
/// coalesced (``ScreenDiff/coalesce(_:)``), so terminal hitches are exact.
public final class TestBackend: TerminalBackend, TerminalImageOutput, TerminalOutputFlow {
    public private(set) var size: (rows: Int, columns: Int)
    public let capability: ColorCapability
    public var supportsSynchronizedOutput: Bool { true }
    /// What a test says the terminal answered.
    public var probed = TerminalProbe.Answers()
    public var isHeadless: Bool { false }
    public var traits: TerminalTraits {
        TerminalTraits(capability: capability, supportsSynchronizedOutput: supportsSynchronizedOutput, probed: probed, isHeadless: isHeadless)
    }
    /// Its own pixel and image output.
    public var imageOutput: any TerminalImageOutput { self }
    /// Its own output flow (the simulated link, if any).
    public var outputFlow: any TerminalOutputFlow { self }
    /// What the terminal shows now (blank before the first frame).
    public private(set) var screen: Canvas
    /// What the frames cost in the byte model, behind the public figures.
    private var counts = OutputCounts()
    public var bytesInLastFrame: Int { counts.bytesInLastFrame }
    /// Bytes all frames would have sent.
    public var bytesWritten: Int { counts.bytesWritten }
    /// Frames presented, and cells written by the last one.
    public var framesPresented: Int { counts.framesPresented }
    /// Cells the last frame wrote (what the diff found changed).
    public var cellsWrittenInLastFrame: Int { counts.cellsWrittenInLastFrame }
    public var isHungUp = false
    /// Called as the frame loop waits for its next tick (before it sleeps): a test lets
    /// virtual time pass there without work, as a thread that wakes late would see it.
    public var whileWaitingForTick: (() -> Void)?
    /// ``end()`` was called.
    public private(set) var hasEnded = false
    private var keys: [Key] = []
    /// The presenter's diff, shared with ``CanvasPresenter``.
    private var diff = ScreenDiff()
    /// The terminal as a consumer with a rate; takes everything at once until
    /// ``simulateLink(bytesPerSecond:now:)``.
    private var link = SimulatedLink()
    /// What the app handed the image output.
    private var images = RecordedImageOutput()

    /// A terminal of `rows` × `columns` showing `capability` colours, blank.
    public init(rows: Int = 48, columns: Int = 160, capability: ColorCapability = .palette256) {
        size = (rows, columns)
        self.capability = capability
        screen = Canvas(columns: columns, rows: rows)
    }

    /// Queues keys, read one per ``nextKey()`` call in order.
    public func type(_ keys: Key...) { self.keys += keys }
    /// Queues keys, read one per ``nextKey()`` call in order.
    public func type(_ keys: [Key]) { self.keys += keys }

    /// Changes the size and queues the `.resize` key, as ncurses does on SIGWINCH.
    public func resize(rows: Int, columns: Int) {
        size = (rows, columns)
        keys.append(.resize)
    }

    /// The screen as lines of text (trailing blanks kept).
    public var rowTexts: [String] { screen.rowTexts }

    /// The whole screen as one string, a line per row.
    public var text: String { rowTexts.joined(separator: "\n") }

    public func nextKey() -> Key? { keys.isEmpty ? nil : keys.removeFirst() }

    /// Nothing to stop: the next frame writes every cell, as after a real `fg`.
    public func suspend() { diff.invalidate() }

    /// Every byte sent by ``sendGraphics(_:)``, in order (kitty transmissions, deletions).
    public var graphicsOutput: [UInt8] { images.graphicsOutput }

    public func sendGraphics(_ bytes: [UInt8]) {
        images.graphicsOutput += bytes
        counts.bytesWritten += bytes.count
        queueOnLink(bytes.count)
    }

    // MARK: The simulated link

    /// Frames not presented because the link had not taken the one before.
    public var coalescedFrames: Int { diff.coalescedFrames }
    /// A frame was coalesced and none presented since.
    public var hasCoalescedFrame: Bool { diff.hasCoalescedFrame }

    /// From now on the terminal takes `bytesPerSecond`, in the time `now` reads.
    public func simulateLink(bytesPerSecond: Double, now: @escaping () -> Duration) {
        link.rate = (bytesPerSecond, now)
        link.time = now()
    }

    /// Bytes the simulated terminal has not taken yet.
    public var linkPendingBytes: Int {
        advanceLink()
        return link.pending
    }

    /// Lets the link take what its rate allowed since it last did (the clock is read
    /// outside the link's mutation: it is the test's).
    private func advanceLink() {
        guard let now = link.rate?.now else { return }
        let time = now()
        link.drain(until: time)
    }

    private func queueOnLink(_ bytes: Int) {
        guard link.rate != nil else { return }
        advanceLink()
        link.queue(bytes)
    }

    public var isOutputBehind: Bool { linkPendingBytes > 0 || hasCoalescedFrame }

    public func observeOutput(at time: Duration) -> Bool {
        let behind = linkPendingBytes > 0
        link.pacing.observe(at: time, bytesTaken: link.taken, behind: behind, ceiling: link.optionalCeiling)
        return behind
    }

    public func noteOptionalBytesHeldBack() { link.pacing.noteHeldBack() }

    /// Time is the caller's: the link drains as its clock advances.
    public func waitForOutput(until deadline: Duration, now: () -> Duration) { whileWaitingForTick?() }
    public func deliverOutput() {}

    public func optionalBytesPerFrame(hertz: Double, ceiling: Int) -> Int {
        link.optionalCeiling = ceiling
        let pending = linkPendingBytes
        return pending > 0 ? 0 : link.pacing.optionalBytesPerFrame(hertz: hertz, ceiling: ceiling, pending: pending)
    }

    public var outputStatistics: OutputStatistics {
        var statistics = OutputStatistics()
        statistics.coalescedFrames = coalescedFrames
        statistics.pendingBytesMax = link.pendingMax
        statistics.drainMedian = link.pacing.medianRate
        statistics.drainMinimum = link.pacing.minimumRate
        statistics.drainSamples = link.pacing.sampleCount
        return statistics
    }

    /// Pixel images kept for pixel cells, by id (what the real presenter would draw).
    public var pixelImages: [UInt32: PixelImage] { images.pixelImages }
    /// ``enablePixelImages()`` was called.
    public var pixelImagesEnabled: Bool { images.pixelImagesEnabled }
    public var pixelBytesPerFrame: Int {
        get { images.pixelBytesPerFrame }
        set { images.pixelBytesPerFrame = newValue }
    }
    public var hasDeferredPixels: Bool { false }
    public var isScrolling: Bool {
        get { images.isScrolling }
        set { images.isScrolling = newValue }
    }
    public func enablePixelImages() { images.pixelImagesEnabled = true }
    public func updatePixelImages(defined: [PixelImage], forgotten: [UInt32]) {
        for image in defined { images.pixelImages[image.id] = image }
        for id in forgotten { images.pixelImages[id] = nil }
    }

    /// Never sleeps (time is the caller's clock): true when keys are queued.
    public func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool { !keys.isEmpty }

    /// Emits the shared diff's plan (``ScreenDiff``, as ``CanvasPresenter`` does) into
    /// ``screen`` and the byte model; decides nothing of its own.
    public func present(_ canvas: Canvas, scrolled hint: (rows: Range<Int>, by: Int)?) {
        if link.rate != nil, linkPendingBytes > 0 {
            diff.coalesce(hint)
            counts.bytesInLastFrame = 0
            counts.cellsWrittenInLastFrame = 0
            return
        }
        let plan = diff.begin(canvas, scrolled: hint)
        var bytes = Self.synchronizedBytes
        if plan.clears { bytes += 4 }  // ESC [ 2 J
        if let scroll = plan.scroll { bytes += Self.scrollBytes(scroll.rows, by: scroll.by) }
        var cursor: (x: Int, y: Int)? = nil
        var pen: CellStyle? = nil
        var written = 0
        diff.forEachChange(canvas) { x, y, cell in
            if cursor.map({ $0.x != x || $0.y != y }) ?? true { bytes += Self.digits(y + 1) + Self.digits(x + 1) + 4 }
            if pen != cell.style {
                bytes += sgrBytes(cell.style)
                pen = cell.style
            }
            bytes += String(cell.glyph).utf8.count
            cursor = (x + (x + 1 < canvas.columns && canvas[x + 1, y].isContinuation ? 2 : 1), y)
            written += 1
        }
        if !diff.finish(canvas, plan: plan, cellsSent: written) { bytes = 0 }  // nothing sent at all
        screen.assign(diff.shown)
        counts.framesPresented += 1
        counts.cellsWrittenInLastFrame = written
        counts.bytesInLastFrame = bytes
        counts.bytesWritten += bytes
        queueOnLink(bytes)
    }

    public func invalidate() { diff.invalidate() }

    public func measureFullPaint(_ canvas: Canvas) -> Int {
        let total = counts.bytesWritten, last = counts.bytesInLastFrame, cells = counts.cellsWrittenInLastFrame
        diff.invalidate()
        let savedRate = link.rate
        link.rate = nil
        present(canvas, scrolled: nil)
        link.rate = savedRate
        let bytes = counts.bytesInLastFrame
        counts.bytesWritten = total
        counts.bytesInLastFrame = last
        counts.cellsWrittenInLastFrame = cells
        counts.framesPresented -= 1
        return bytes
    }

    public func end() { hasEnded = true }

    private static let synchronizedBytes = 16

    private static func digits(_ value: Int) -> Int { String(value).utf8.count }

    /// `ESC [ top ; bottom r`, `ESC [ n S` (or `T`), `ESC [ r`.
    private static func scrollBytes(_ rows: Range<Int>, by count: Int) -> Int {
        (digits(rows.lowerBound + 1) + digits(rows.upperBound) + 4) + (digits(abs(count)) + 3) + 3
    }

    private func sgrBytes(_ style: CellStyle) -> Int {
        let foreground = capability.number(for: style.foreground), background = capability.number(for: style.background)
        var bytes = 5  // ESC [ 0 ... m
        if foreground >= 0 { bytes += 6 + Self.digits(Int(foreground)) }
        if background >= 0 { bytes += 6 + Self.digits(Int(background)) }
        if style.bold { bytes += 2 }
        if style.dim { bytes += 2 }
        if style.reverse { bytes += 2 }
        if style.underline { bytes += 2 }
        return bytes
    }
}

extension TestBackend {
    /// The byte model's figures, as the public counters report them.
    struct OutputCounts {
        /// Bytes the last frame would have sent.
        var bytesInLastFrame = 0
        /// Bytes all frames (and graphics between them) would have sent.
        var bytesWritten = 0
        /// Frames presented.
        var framesPresented = 0
        /// Cells the last frame wrote.
        var cellsWrittenInLastFrame = 0
    }

    /// The terminal as a consumer with a rate, in the test's time: what it was sent and
    /// has not taken, and the pacing measured from what it took.
    struct SimulatedLink {
        /// Bytes it takes a second, and the clock they are taken by; nil: it takes every
        /// byte at once (the default, and while a full paint is measured).
        var rate: (bytesPerSecond: Double, now: () -> Duration)?
        /// Bytes sent and not yet taken.
        var pending = 0
        /// Bytes taken so far: what the pacing measures the rate by.
        var taken = 0
        /// When it last took bytes.
        var time: Duration = .zero
        /// The measured rate and the optional-byte budget planned from it.
        var pacing = OutputPacing()
        /// The ceiling the last budget was asked under.
        var optionalCeiling = Int.max
        /// The most bytes pending at once.
        var pendingMax = 0

        /// Takes what the rate allows between its last take and `now`.
        mutating func drain(until now: Duration) {
            guard let rate, now > time else { return }
            let taken = min(pending, Int(rate.bytesPerSecond * (now - time).milliseconds / 1000))
            pending -= taken
            self.taken += taken
            time = now
        }

        /// Sends it `bytes` more.
        mutating func queue(_ bytes: Int) {
            pending += bytes
            pendingMax = max(pendingMax, pending)
        }
    }

    /// What the app handed the image output, kept for a test to read (nothing is drawn).
    struct RecordedImageOutput {
        /// Every byte sent by ``TestBackend/sendGraphics(_:)``, in order.
        var graphicsOutput: [UInt8] = []
        /// Pixel images kept for pixel cells, by id.
        var pixelImages: [UInt32: PixelImage] = [:]
        /// ``TestBackend/enablePixelImages()`` was called.
        var pixelImagesEnabled = false
        /// The pixel budget the app set for a frame.
        var pixelBytesPerFrame = Int.max
        /// What the app last said of its content's motion.
        var isScrolling = false
    }
}

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
    public let supportsSynchronizedOutput = true
    /// What a test says the terminal answered.
    public var probed = TerminalProbe.Answers()
    public let isHeadless = false
    public var traits: TerminalTraits {
        TerminalTraits(capability: capability, supportsSynchronizedOutput: supportsSynchronizedOutput, probed: probed, isHeadless: isHeadless)
    }
    /// Its own pixel and image output.
    public var imageOutput: any TerminalImageOutput { self }
    /// Its own output flow (the simulated link, if any).
    public var outputFlow: any TerminalOutputFlow { self }
    /// What the terminal shows now (blank before the first frame).
    public private(set) var screen: Canvas
    public private(set) var bytesInLastFrame = 0
    /// Bytes all frames would have sent.
    public private(set) var bytesWritten = 0
    /// Frames presented, and cells written by the last one.
    public private(set) var framesPresented = 0
    /// Cells the last frame wrote (what the diff found changed).
    public private(set) var cellsWrittenInLastFrame = 0
    public var isHungUp = false
    /// Called as the frame loop waits for its next tick (before it sleeps): a test lets
    /// virtual time pass there without work, as a thread that wakes late would see it.
    public var whileWaitingForTick: (() -> Void)?
    /// ``end()`` was called.
    public private(set) var hasEnded = false
    private var keys: [Key] = []
    /// The presenter's diff, shared with ``CanvasPresenter``.
    private var diff = ScreenDiff()

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
    public private(set) var graphicsOutput: [UInt8] = []

    public func sendGraphics(_ bytes: [UInt8]) {
        graphicsOutput += bytes
        bytesWritten += bytes.count
        queueOnLink(bytes.count)
    }

    // MARK: The simulated link

    private var link: (bytesPerSecond: Double, now: () -> Duration)?
    private var linkPending = 0
    private var linkTaken = 0
    private var linkTime: Duration = .zero
    private var pacing = OutputPacing()
    private var optionalCeiling = Int.max
    private var pendingMax = 0
    /// Frames not presented because the link had not taken the one before.
    public var coalescedFrames: Int { diff.coalescedFrames }
    /// A frame was coalesced and none presented since.
    public var hasCoalescedFrame: Bool { diff.hasCoalescedFrame }

    /// From now on the terminal takes `bytesPerSecond`, in the time `now` reads.
    public func simulateLink(bytesPerSecond: Double, now: @escaping () -> Duration) {
        link = (bytesPerSecond, now)
        linkTime = now()
    }

    /// Bytes the simulated terminal has not taken yet.
    public var linkPendingBytes: Int {
        advanceLink()
        return linkPending
    }

    private func advanceLink() {
        guard let link else { return }
        let time = link.now()
        guard time > linkTime else { return }
        let taken = min(linkPending, Int(link.bytesPerSecond * (time - linkTime).milliseconds / 1000))
        linkPending -= taken
        linkTaken += taken
        linkTime = time
    }

    private func queueOnLink(_ bytes: Int) {
        guard link != nil else { return }
        advanceLink()
        linkPending += bytes
        pendingMax = max(pendingMax, linkPending)
    }

    public var isOutputBehind: Bool { linkPendingBytes > 0 || hasCoalescedFrame }

    public func observeOutput(at time: Duration) -> Bool {
        let behind = linkPendingBytes > 0
        pacing.observe(at: time, bytesTaken: linkTaken, behind: behind, ceiling: optionalCeiling)
        return behind
    }

    public func noteOptionalBytesHeldBack() { pacing.noteHeldBack() }

    /// Time is the caller's: the link drains as its clock advances.
    public func waitForOutput(until deadline: Duration, now: () -> Duration) { whileWaitingForTick?() }
    public func deliverOutput() {}

    public func optionalBytesPerFrame(hertz: Double, ceiling: Int) -> Int {
        optionalCeiling = ceiling
        let pending = linkPendingBytes
        return pending > 0 ? 0 : pacing.optionalBytesPerFrame(hertz: hertz, ceiling: ceiling, pending: pending)
    }

    public var outputStatistics: OutputStatistics {
        var statistics = OutputStatistics()
        statistics.coalescedFrames = coalescedFrames
        statistics.pendingBytesMax = pendingMax
        statistics.drainMedian = pacing.medianRate
        statistics.drainMinimum = pacing.minimumRate
        statistics.drainSamples = pacing.sampleCount
        return statistics
    }

    /// Pixel images kept for pixel cells, by id (what the real presenter would draw).
    public private(set) var pixelImages: [UInt32: PixelImage] = [:]
    /// ``enablePixelImages()`` was called.
    public private(set) var pixelImagesEnabled = false
    public var pixelBytesPerFrame = Int.max
    public var hasDeferredPixels: Bool { false }
    public func enablePixelImages() { pixelImagesEnabled = true }
    public func updatePixelImages(defined: [PixelImage], forgotten: [UInt32]) {
        for image in defined { pixelImages[image.id] = image }
        for id in forgotten { pixelImages[id] = nil }
    }

    /// Never sleeps (time is the caller's clock): true when keys are queued.
    public func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool { !keys.isEmpty }

    /// Emits the shared diff's plan (``ScreenDiff``, as ``CanvasPresenter`` does) into
    /// ``screen`` and the byte model; decides nothing of its own.
    public func present(_ canvas: Canvas, scrolled hint: (rows: Range<Int>, by: Int)?) {
        if link != nil, linkPendingBytes > 0 {
            diff.coalesce(hint)
            bytesInLastFrame = 0
            cellsWrittenInLastFrame = 0
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
        framesPresented += 1
        cellsWrittenInLastFrame = written
        bytesInLastFrame = bytes
        bytesWritten += bytes
        queueOnLink(bytes)
    }

    public func invalidate() { diff.invalidate() }

    public func measureFullPaint(_ canvas: Canvas) -> Int {
        let total = bytesWritten, last = bytesInLastFrame, cells = cellsWrittenInLastFrame
        diff.invalidate()
        let savedLink = link
        link = nil
        present(canvas, scrolled: nil)
        link = savedLink
        let bytes = bytesInLastFrame
        bytesWritten = total
        bytesInLastFrame = last
        cellsWrittenInLastFrame = cells
        framesPresented -= 1
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

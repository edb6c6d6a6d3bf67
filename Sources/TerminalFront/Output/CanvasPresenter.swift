import CellCanvas

/// Shows a Canvas on the terminal, writing only the cells that changed since the last
/// frame; colours are mapped to what the terminal can show and colour pairs are allocated
/// on demand and recycled (least recently used, never one a cell on screen shows) when the
/// terminal's supply runs out.
/// Rows that scrolled are moved by the terminal (ncurses' scroll optimiser, `idlok`), each
/// frame is wrapped in synchronized output where the terminal has it, and the bytes every
/// frame sends are counted.
///
/// A frame is assembled in memory (ncurses' update, captured, then the pixel strips) and
/// handed whole to the session's ``TerminalWriter``; while the terminal has not taken the
/// last one, frames are **coalesced**: nothing is drawn or sent, the scroll hints add up,
/// and the first frame after the terminal caught up carries the net change (ncurses' and
/// our picture of the screen stay exactly what was sent, so no partial frame is shown).
/// Main thread only; needs a started ``TerminalSession``.
public final class CanvasPresenter {
    /// What colours the terminal shows (from its session).
    public let capability: ColorCapability
    /// What the terminal shows, and the frame's diff against it (shared with ``TestBackend``).
    private var diff = ScreenDiff()
    /// The colour pairs given out, and the frame count that ages them.
    private var colorPairs: ColorPairs
    /// The canvas being presented (for the pairs it needs kept), nil between frames.
    private var presenting: Canvas?
    /// What the frames wrote, behind the public figures.
    private var counts = OutputCounts()
    /// Pairs recycled so far.
    public var recycledPairs: Int { colorPairs.recycled }
    /// Times the pairs ran out; each frees up to half of them, among those no cell on screen shows.
    public var pairRecyclingRounds: Int { colorPairs.rounds }
    /// Cells drawn in the nearest defined pair because every pair was on screen (more
    /// colour combinations than the terminal has pairs); each is written again in the next
    /// frame, in its own pair if one is free by then.
    public var approximatedCells: Int { colorPairs.approximatedCells }
    /// Cells written in the last frame.
    public var cellsWritten: Int { counts.cellsWritten }
    /// Bytes the last frame handed to the terminal.
    public var bytesInLastFrame: Int { counts.bytesInLastFrame }
    /// Bytes handed to the terminal by all frames so far.
    public var bytesWritten: Int { counts.bytesWritten }
    /// Frames not sent because the terminal had not taken the one before (their changes
    /// went out with the next frame sent).
    public var coalescedFrames: Int { diff.coalescedFrames }
    /// A frame was coalesced and none sent since: the screen is behind the canvas.
    public var hasCoalescedFrame: Bool { diff.hasCoalescedFrame }
    /// What the terminal does beyond cells: synchronized output, links (and the links drawn last).
    private var features: Features

    struct Features {
        let synchronized: Bool
        var drawsLinks = false
        var linksShown: [Canvas.Link] = []
    }

    /// Draws the canvas's links (OSC 8) over their cells; off unless the terminal draws
    /// them (``Hyperlinks/isSupported(environment:)``).
    public var drawsLinks: Bool {
        get { features.drawsLinks }
        set { features.drawsLinks = newValue }
    }
    private let writer: TerminalWriter
    private let capture: UpdateCapture?
    /// The frame being assembled (kept: no allocation in the steady state).
    private var frameBytes: [UInt8] = []
    /// What the last frame sent of its own around ncurses' update: before it (deletions of
    /// placements a scroll would leave behind) and after it (strips, placements, deletions).
    private(set) var lastPixelBytes: (preamble: [UInt8], strips: [UInt8]) = ([], [])
    /// Draws ``PixelCell`` cells once ``enablePixelImages()`` was called; nil before.
    private var pixels: PixelImagePainter?
    private static let beginSynchronized = Array("\u{1B}[?2026h".utf8), endSynchronized = Array("\u{1B}[?2026l".utf8)

    /// A presenter for a started `session`.
    public init(session: TerminalSession) {
        capability = session.capability
        features = Features(synchronized: session.supportsSynchronizedOutput)
        writer = session.writer
        capture = session.capture
        colorPairs = ColorPairs(limit: capability == .none ? 1 : Curses.colorPairLimit)
    }

    /// Forgets what is on screen (after a resize or a redraw request): the next frame
    /// writes every cell.
    public func invalidate() { diff.invalidate() }

    /// From now on `PixelCell` cells are drawn as the pixels of the images handed over
    /// with ``updatePixelImages(defined:forgotten:)`` (sixel, inline images, 24-bit symbols).
    public func enablePixelImages() {
        guard pixels == nil else { return }
        pixels = PixelImagePainter()
        diff.invalidate()
    }

    /// Images the pixel cells may name from now on, and ids no cell will name again.
    public func updatePixelImages(defined: [PixelImage], forgotten: [UInt32]) {
        for image in defined { pixels?.define(image) }
        for id in forgotten { pixels?.forget(id) }
    }

    /// What each frame may send of pixels, and the parse receipts asked for.
    private var pace = FramePace()

    struct FramePace {
        var pixelBytes = Int.max
        var scrolling = false
        var asksForParseReceipt = false
        /// The pixels before the request the last frame ended with: their cost, bytes and
        /// images.
        var receipt: (cost: Int, bytes: Int, images: Int)?
        /// Graphics bytes handed over (``sendGraphics(_:)``) since the last request: part of
        /// what the next one times.
        var graphicsSinceLastFrame = 0
    }

    /// Frames that carry pixels end with ``ParsePacing/request`` (set each frame by the
    /// backend: only while no answer is awaited).
    var asksForParseReceipt: Bool {
        get { pace.asksForParseReceipt }
        set { pace.asksForParseReceipt = newValue }
    }

    /// The pixels before the request the last frame ended with, once (nil when none was
    /// asked since the last call): their cost, bytes and images.
    func takeReceipt() -> (cost: Int, bytes: Int, images: Int)? {
        defer { pace.receipt = nil }
        return pace.receipt
    }

    /// What an image costs the terminal beside its bytes, as learned from its answers (set
    /// each frame by the backend; nil: each image's prior, ``PixelImage/costPerImage``).
    var imagePrice: Int? {
        get { pixels?.imagePrice }
        set { pixels?.imagePrice = newValue }
    }

    /// Strip bytes a frame may send (the first strip always goes): set each frame from the
    /// refresh rate, so a terminal is sent no more pixels a second than it can parse.
    public var pixelBytesPerFrame: Int {
        get { pace.pixelBytes }
        set { pace.pixelBytes = newValue }
    }
    /// The content scrolls (set each frame by the app): a picture only partly on the screen
    /// shows its fallback until all of it is, then goes as one image (D-079).
    public var isScrolling: Bool {
        get { pace.scrolling }
        set { pace.scrolling = newValue }
    }
    /// The last frame left image rows as symbols, for want of budget or waiting while the
    /// content scrolls (D-079): another frame will draw them.
    public var hasDeferredPixels: Bool { pixels.map { $0.heldBack.forBudget || $0.heldBack.whileScrolling } ?? false }
    /// The last frame left image rows as symbols for want of budget alone: the terminal
    /// could have been sent more (what ``OutputPacing`` grows its estimate on).
    public var hasPixelsHeldForBudget: Bool { pixels?.deferredInLastFrame ?? false }

    /// Images kept for pixel cells (bounded by the image cache's limit).
    public var pixelImageCount: Int { pixels?.images.count ?? 0 }
    /// Image rows drawn as pixels by the last frame.
    public var pixelStripsInLastFrame: Int { pixels?.stripsInLastFrame ?? 0 }
    /// Images all frames drew: whole pictures, and strips (an image a row of cells).
    public var pixelImagesSent: (whole: Int, strips: Int) { pixels?.sent ?? (0, 0) }

    /// Writes the changed cells and updates the screen.
    /// - Complexity: O(cells) to compare; ncurses calls only for changed cells.
    ///
    /// - Parameters:
    ///   - canvas: the frame, whole.
    ///   - scrolled: rows of the canvas whose content moved up by `by` rows (down
    ///   when negative) since the last frame. Those rows are shifted on the screen we keep
    ///   and in ncurses' window (`wscrl` in a scroll region) before comparing, so only the
    ///   newly exposed rows differ: the CPU cost and the bytes of a scrolling frame follow
    ///   the exposed rows, not the screen. A wrong hint costs writes, never correctness.
    public func present(_ canvas: Canvas, scrolled: (rows: Range<Int>, by: Int)? = nil) {
        present(canvas, scrolled: scrolled, evenIfBehind: false)
    }

    private func present(_ canvas: Canvas, scrolled hint: (rows: Range<Int>, by: Int)?, evenIfBehind: Bool, sending: Bool = true) {
        lastPixelBytes = ([], [])
        writer.pump()
        if writer.isBehind && !evenIfBehind {
            diff.coalesce(hint)
            counts.bytesInLastFrame = 0
            return
        }
        colorPairs.frame += 1
        presenting = canvas
        defer { presenting = nil }
        let plan = diff.begin(canvas, scrolled: hint)
        pixels?.beginFrame()
        if plan.clears {
            Curses.erase()
            pixels?.screenErased()
        }
        if let scroll = plan.scroll {
            Curses.scroll(rows: scroll.rows, by: scroll.by, screenRows: canvas.rows)
            pixels?.scrolled(rows: scroll.rows, by: scroll.by)
        }
        var written = 0
        if pixels == nil {
            diff.forEachChange(canvas) { x, y, cell in
                put(cell, x: x, y: y)
                written += 1
            }
        } else {
            diff.forEachChange(canvas) { x, y, cell in
                if PixelCell.decode(cell) != nil {
                    // Sent only because its right neighbour changed (the rule for wide
                    // characters): a pixel cell is never wide, and redrawing its strip
                    // would resend the row.
                    if diff.shownCell(x: x, y: y) == cell { return }
                    pixels?.noteChanged(x: x, y: y)
                } else {
                    put(cell, x: x, y: y)
                }
                written += 1
            }
            pixels?.plan(canvas, budget: pace.pixelBytes, scrolling: pace.scrolling) { x, y, cell, concealed in
                if concealed {
                    Curses.putConcealed(PixelImagePainter.marker(for: cell), x: x, y: y)
                } else {
                    put(cell, x: x, y: y)
                }
            }
        }
        counts.cellsWritten = written
        // Where a pixel cell shows its fallback, the screen holds the fallback.
        // Where a cell was drawn in a nearby pair, the screen holds something else: the next
        // frame writes it again, in its own pair if one is free by then.
        let sends = diff.finish(canvas, plan: plan, cellsSent: written, showing: (pixels?.fallbackShown ?? []) + colorPairs.approximated)
        colorPairs.approximated.removeAll(keepingCapacity: true)
        // Links go over their cells again whenever cells were written (ncurses may have
        // rewritten theirs) or the links changed.
        let linksChanged = features.drawsLinks && canvas.links != features.linksShown
        let drawsLinks = features.drawsLinks && !canvas.links.isEmpty && (written > 0 || plan.clears || linksChanged)
        if features.drawsLinks { features.linksShown = canvas.links }
        guard sends || linksChanged || pixels?.hasLingeringDeletions == true else {
            counts.bytesInLastFrame = 0
            return
        }
        Curses.stage()
        frameBytes.removeAll(keepingCapacity: true)
        // What ncurses wrote outside an update (start-up, a resume) goes first, then the
        // frame: ncurses' buffer is empty between updates (each doupdate ends with a
        // flush), so the capture after it holds exactly this frame's cells.
        capture?.take(into: &frameBytes)
        if features.synchronized { frameBytes += Self.beginSynchronized }
        let preamble = pixels?.preamble ?? []
        frameBytes += preamble
        Curses.update()
        capture?.take(into: &frameBytes)
        if drawsLinks { frameBytes += Hyperlinks.overlay(canvas.links, of: canvas, capability: capability) }
        let strips = pixels?.takeStrips() ?? []
        frameBytes += strips
        lastPixelBytes = (preamble, strips)
        if features.synchronized { frameBytes += Self.endSynchronized }
        let planned = pixels?.planned ?? (cost: 0, bytes: 0, images: 0)
        let pixelCost = planned.cost + pace.graphicsSinceLastFrame
        if sending && pace.asksForParseReceipt && pixelCost > 0 {
            frameBytes += ParsePacing.request
            pace.receipt = (pixelCost, planned.bytes + pace.graphicsSinceLastFrame, planned.images)
            pace.graphicsSinceLastFrame = 0
        }
        // Queued, not written: the frame loop writes it right after the commit.
        if sending { writer.queue(frameBytes) }
        let sent = frameBytes.count
        counts.bytesInLastFrame = sent
        counts.bytesWritten += sent
    }

    /// The bytes a whole paint of `canvas` from a clear screen takes (not added to
    /// ``bytesWritten``): the yardstick for what scrolling frames send. Measured, not sent —
    /// at the end of a run over a slow link a full paint would hold `q` — so the next frame,
    /// if any, repaints everything.
    public func measureFullPaint(_ canvas: Canvas) -> Int {
        let total = counts.bytesWritten, sent = pixels?.sent, scrolling = pace.scrolling
        diff.invalidate()
        Curses.repaintAllAtNextUpdate()
        pace.scrolling = false  // the yardstick is a whole screen at rest
        present(canvas, scrolled: nil, evenIfBehind: true, sending: false)
        pace.scrolling = scrolling
        if let sent { pixels?.sent = sent }  // nothing was sent
        counts.bytesWritten = total
        diff.invalidate()
        Curses.repaintAllAtNextUpdate()
        return counts.bytesInLastFrame
    }

    /// Hands escape sequences that are not cells (kitty image transmissions) to the
    /// terminal between two frames, in order with them; counted in ``bytesWritten``.
    public func sendGraphics(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        writer.enqueue(bytes)
        counts.bytesWritten += bytes.count
        pace.graphicsSinceLastFrame += bytes.count
    }

    /// The terminal's colour numbers for a cell's colours: what a pair is defined by.
    private func pairKey(_ foreground: Color, _ background: Color) -> ColorPairs.Key {
        ColorPairs.Key(foreground: capability.number(for: foreground), background: capability.number(for: background))
    }

    /// Puts `cell` into ncurses' window in its colour pair, noting it when only a nearby
    /// pair was to be had.
    private func put(_ cell: Cell, x: Int, y: Int) {
        let (pair, exact) = pairNumber(for: cell.style)
        Curses.put(cell, x: x, y: y, pair: pair)
        if !exact { colorPairs.approximated.append((x, y, Self.notShown)) }
    }

    /// What the kept screen records for a cell shown in a nearby pair: equal to no cell of
    /// any canvas (a noncharacter), so the next frame sends that cell again.
    private static let notShown = Cell(scalar: 0xFFFF)

    private func pairNumber(for style: CellStyle) -> (number: Int32, exact: Bool) {
        guard capability != .none else { return (0, true) }
        let key = pairKey(style.foreground, style.background)
        if key.foreground == -1 && key.background == -1 { return (0, true) }
        if let existing = colorPairs.use(key) { return (existing, true) }
        let number: Int32
        if colorPairs.next < colorPairs.limit {
            number = colorPairs.next
            colorPairs.next += 1
        } else {
            if colorPairs.free.isEmpty { freePairsNotOnScreen() }
            guard let free = colorPairs.free.popLast() else {
                colorPairs.approximatedCells += 1
                return (colorPairs.nearest(to: key, capability: capability), false)
            }
            number = free
        }
        Curses.definePair(number, foreground: key.foreground, background: key.background)
        colorPairs.define(key, as: number)
        return (number, true)
    }

    /// Out of pairs: frees, in one pass, up to half of them — the least recently used of
    /// those no cell will show after this frame (the canvas, and pictures' fallbacks still
    /// on screen) and no cell of this frame was given. A round that finds none is not
    /// tried again in the same frame (its cells take the nearest pair instead).
    ///
    /// A pair a cell on screen still shows is never redefined: ncurses repaints every cell
    /// of a redefined pair at the next update, in the pair's *new* colours, and a cell that
    /// did not change is not written again with a new number. Recycling by last use alone
    /// did exactly that in xterm (8 colours, 64 pairs) over a feed: the unchanged "♥ likes"
    /// lines turned black on yellow once a fling's symbol mosaics had used up the pairs
    /// (D-065). Freeing half at once keeps the rounds rare: one pair at a time cost a scan of
    /// every pair per new combination, and with 24-bit colour thumbnails bring thousands a
    /// second (D-042).
    /// - Complexity: O(cells + pairs log pairs), once per round.
    private func freePairsNotOnScreen() {
        guard colorPairs.fruitlessRound != colorPairs.frame else { return }
        var shown = Set<ColorPairs.Key>()
        var last: (foreground: Color, background: Color)?
        func note(_ cell: Cell) {
            let colours = (cell.style.foreground, cell.style.background)
            if let last, last == colours { return }
            last = colours
            shown.insert(pairKey(colours.0, colours.1))
        }
        // After this frame the screen is the canvas, except where a picture's cell shows
        // its fallback: a fallback sent this frame was given its pair this frame, one sent
        // before is in the kept screen.
        if let canvas = presenting {
            for y in 0..<canvas.rows {
                for x in 0..<canvas.columns {
                    let cell = canvas[x, y]
                    if PixelCell.decode(cell) == nil {
                        note(cell)
                    } else if let before = diff.shownCell(x: x, y: y), PixelCell.decode(before) == nil {
                        note(before)
                    }
                }
            }
        }
        colorPairs.recycle(keeping: shown)
    }
}

extension CanvasPresenter {
    /// The figures the frames add up to, as the public counters report them.
    struct OutputCounts {
        /// Cells written in the last frame.
        var cellsWritten = 0
        /// Bytes the last frame handed to the terminal.
        var bytesInLastFrame = 0
        /// Bytes handed to the terminal by all frames so far (graphics between them included).
        var bytesWritten = 0
    }
}

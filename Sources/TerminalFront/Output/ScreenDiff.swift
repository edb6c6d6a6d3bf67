import CellCanvas

/// What the terminal shows and what a frame must change of it: the one diff every backend
/// emits. ``CanvasPresenter`` turns a frame's plan into ncurses calls and bytes;
/// ``TestBackend`` into its screen and its byte model; neither decides anything itself.
///
/// A frame is planned in three steps: ``begin(_:scrolled:)`` decides whether the screen is
/// cleared and which rows the terminal scrolls (the kept screen is shifted accordingly),
/// ``forEachChange(_:_:)`` names the cells to send, and ``finish(_:plan:cellsSent:showing:)`` records
/// the canvas as shown. While the terminal is behind, ``coalesce(_:)`` keeps a frame's
/// scroll for the next one sent, so the screen model stays exactly what was sent.
public struct ScreenDiff {
    /// What the terminal shows, in storage of its own (see `Canvas.assign(_:)`); only
    /// meaningful while ``isValid``.
    public private(set) var shown = Canvas(columns: 0, rows: 0)
    /// False until the first frame, and after ``invalidate()``: the next frame repaints all.
    public private(set) var isValid = false
    private var coalescedScroll = CoalescedScroll()
    /// Frames not sent because the terminal had not taken the one before (their changes
    /// went out with the next frame sent).
    public private(set) var coalescedFrames = 0
    /// A frame was coalesced and none sent since: the screen is behind the canvas.
    public private(set) var hasCoalescedFrame = false

    /// The decisions of a frame before its cells.
    public struct Plan: Equatable {
        /// The screen is cleared first: every cell is sent.
        public let clears: Bool
        /// Rows the terminal scrolls up by `by` (down when negative) before the cells.
        public let scroll: Scroll?
    }

    /// A region scroll the terminal performs (its kept rows shifted, the rest sent).
    public struct Scroll: Equatable {
        /// The rows of the region.
        public let rows: Range<Int>
        /// Rows the content moves up (down when negative).
        public let by: Int
    }

    /// A diff with nothing shown yet: the first frame paints everything.
    public init() {}

    /// Forgets what is on screen (after a resize, a redraw request or a resume): the next
    /// frame clears it and sends every cell.
    public mutating func invalidate() { isValid = false }

    /// The terminal has not taken the last frame: this one is not sent; its scroll is kept.
    public mutating func coalesce(_ hint: (rows: Range<Int>, by: Int)?) {
        coalescedScroll.add(hint)
        coalescedFrames += 1
        hasCoalescedFrame = true
    }

    /// Plans a frame of `canvas`, whose rows `hint.rows` moved up by `hint.by` since the
    /// last one (with the scrolls of the frames coalesced since): the screen is cleared when
    /// nothing valid is kept (or its size changed); otherwise the terminal scrolls those rows
    /// when that is possible, and the kept screen is shifted the same way, so only the
    /// exposed rows differ. A wrong hint costs cells sent, never correctness.
    public mutating func begin(_ canvas: Canvas, scrolled hint: (rows: Range<Int>, by: Int)?) -> Plan {
        let merged = coalescedScroll.take(with: hint)
        hasCoalescedFrame = false
        if shown.columns != canvas.columns || shown.rows != canvas.rows { isValid = false }
        guard isValid else { return Plan(clears: true, scroll: nil) }
        guard let merged, merged.by != 0, abs(merged.by) < merged.rows.count,
              merged.rows.lowerBound >= 0, merged.rows.upperBound <= canvas.rows else { return Plan(clears: false, scroll: nil) }
        shown.scroll(Rect(x: 0, y: merged.rows.lowerBound, width: canvas.columns, height: merged.rows.count), by: merged.by)
        return Plan(clears: false, scroll: Scroll(rows: merged.rows, by: merged.by))
    }

    /// Each cell the frame must send (those that differ from the kept screen, after its
    /// scroll; every cell after a clear).
    /// - Complexity: O(cells) compared; O(changed cells) calls.
    public func forEachChange(_ canvas: Canvas, _ body: (_ x: Int, _ y: Int, _ cell: Cell) -> Void) {
        canvas.forEachCellToSend(comparedTo: isValid ? shown : nil, body)
    }

    /// The cell the kept screen has at (`x`, `y`), when it is valid.
    public func shownCell(x: Int, y: Int) -> Cell? { isValid ? shown[x, y] : nil }

    /// Records `canvas` as shown, with `overrides` where the terminal was sent another cell
    /// (a picture's fallback). Returns whether the frame has anything to send at all: a
    /// frame with no cell sent, no scroll and no clear sends nothing, not even the
    /// synchronized-output brackets, so an idle screen costs no bytes.
    public mutating func finish(_ canvas: Canvas, plan: Plan, cellsSent: Int, showing overrides: [(x: Int, y: Int, cell: Cell)] = []) -> Bool {
        shown.assign(canvas)
        for (x, y, cell) in overrides { shown[x, y] = cell }
        isValid = true
        return cellsSent > 0 || plan.scroll != nil || plan.clears
    }
}

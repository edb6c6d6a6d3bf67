/// A grid of cells every layer draws into; the terminal front presents it.
///
/// A value type with no terminal behind it, so a collection view can be tested by drawing
/// into a canvas and reading it back as rows of text (``rows``) and per-cell styles.
/// Every drawing call clips to the canvas and to an optional clip rectangle; text is
/// measured in display columns, so wide characters and emoji never split.
public struct Canvas: Sendable, Equatable {
    /// Columns across.
    public private(set) var columns: Int
    /// Rows down.
    public private(set) var rows: Int
    /// Every cell, row by row (`cells[y * columns + x]`).
    public private(set) var cells: [Cell]
    /// Spans of cells that link to a web page (OSC 8), for a terminal that draws links;
    /// cleared by ``reset(columns:rows:fill:)``.
    public private(set) var links: [Link] = []
    /// Where the person's attention is (a collection view sets its selected cell's centre),
    /// for a front that cannot draw everything in one frame: it draws what is nearest first.
    /// Cleared by ``reset(columns:rows:fill:)``.
    public var focus: Point?

    /// Cells `x..<x + width` of row `y` link to `url` (drawn as such where the terminal can).
    public struct Link: Sendable, Equatable {
        /// The first cell's column.
        public let x: Int
        /// The row.
        public let y: Int
        /// Cells the link covers.
        public let width: Int
        /// Where it leads (printable ASCII only).
        public let url: String
    }

    /// A canvas of `columns` × `rows` cells, each `fill`.
    public init(columns: Int, rows: Int, fill: Cell = .blank) {
        precondition(columns >= 0 && rows >= 0, "Canvas size must not be negative, got \(columns)×\(rows)")
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: fill, count: columns * rows)
    }

    /// Makes this canvas `columns`×`rows` of `fill`, in its own storage when the size is
    /// unchanged and the storage is not shared: a frame loop that keeps one canvas and
    /// resets it every frame allocates nothing in the steady state.
    /// - Complexity: O(cells).
    public mutating func reset(columns: Int, rows: Int, fill: Cell = .blank) {
        guard columns == self.columns, rows == self.rows else {
            self = Canvas(columns: columns, rows: rows, fill: fill)
            return
        }
        cells.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = fill }
        }
        if !links.isEmpty { links.removeAll(keepingCapacity: true) }
        focus = nil
    }

    /// Marks the `width` cells from `origin` (clipped to the canvas) as a link to `url`; a
    /// URL with anything but printable ASCII is not a link (it would end up in an escape
    /// sequence).
    public mutating func link(_ url: String, at origin: Point, width: Int) {
        guard origin.y >= 0, origin.y < rows, origin.x >= 0, origin.x < columns, width > 0, !url.isEmpty,
              url.utf8.count <= 2048, url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return }
        links.append(Link(x: origin.x, y: origin.y, width: min(width, columns - origin.x), url: url))
    }

    /// Becomes a copy of `other`, into its own storage when the sizes match (no allocation,
    /// and no storage shared with `other`: a front keeps what it showed this way, so that
    /// the app's next reset of its canvas does not copy on write).
    /// - Complexity: O(cells).
    public mutating func assign(_ other: Canvas) {
        guard other.columns == columns, other.rows == rows else {
            self = Canvas(columns: other.columns, rows: other.rows)
            return assign(other)
        }
        links = other.links
        focus = other.focus
        cells.withUnsafeMutableBufferPointer { target in
            other.cells.withUnsafeBufferPointer { source in
                _ = target.update(fromContentsOf: source)
            }
        }
    }

    /// The whole canvas as a rectangle at (0, 0).
    public var bounds: Rect { Rect(x: 0, y: 0, width: columns, height: rows) }

    /// The cell in column `x` of row `y` (both in range).
    /// - Complexity: O(1).
    public subscript(x: Int, y: Int) -> Cell {
        @inlinable get { cells[y * columns + x] }
        set { cells[y * columns + x] = newValue }
    }

    /// Calls `body` with each cell a terminal showing `shown` must be sent to show this
    /// canvas: every cell that differs, and every cell whose right neighbour differs (a
    /// wide character written there may have covered it); continuation cells are never
    /// sent. A row whose bytes equal `shown`'s is skipped after one word-wise compare: the common
    /// case of a frame, most rows unchanged, costs a pass over memory, not a comparison
    /// per cell. With no `shown` (or another size), every cell is sent.
    /// - Complexity: O(cells) bytes compared; O(changed cells) calls.
    public func forEachCellToSend(comparedTo shown: Canvas?, _ body: (_ x: Int, _ y: Int, _ cell: Cell) -> Void) {
        let previous = shown.flatMap { $0.columns == columns && $0.rows == rows ? $0 : nil }
        cells.withUnsafeBufferPointer { now in
            let stride = MemoryLayout<Cell>.stride
            func sendRow(_ y: Int, comparing before: UnsafeBufferPointer<Cell>?) {
                let row = y * columns
                for x in 0..<columns {
                    let cell = now[row + x]
                    if cell.isContinuation { continue }
                    if let before, before[row + x] == cell, x + 1 >= columns || before[row + x + 1] == now[row + x + 1] { continue }
                    body(x, y, cell)
                }
            }
            guard let previous else {
                for y in 0..<rows { sendRow(y, comparing: nil) }
                return
            }
            previous.cells.withUnsafeBufferPointer { before in
                for y in 0..<rows {
                    let row = y * columns
                    // Equal bytes mean equal cells; unequal bytes (padding) are compared properly.
                    if Self.bytesEqual(UnsafeRawPointer(now.baseAddress! + row), UnsafeRawPointer(before.baseAddress! + row), columns * stride) { continue }
                    sendRow(y, comparing: before)
                }
            }
        }
    }

    /// Whether `count` bytes at `a` and `b` are equal, eight at a time.
    private static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset += 1
        }
        return true
    }

    /// The text of each row; continuation cells add nothing, so a wide character reads once.
    /// - Complexity: O(cells).
    public var rowTexts: [String] {
        (0..<rows).map { y in
            var line = ""
            for x in 0..<columns where !self[x, y].isContinuation { line.append(self[x, y].glyph) }
            return line
        }
    }

    /// Sets every cell of `rect` (clipped) to `cell`.
    /// - Complexity: O(cells of the rectangle).
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = cell }
        }
        repairWideEdges(in: area)
    }

    /// Draws `text` from `origin`, at most `width` columns (and never past `clip`),
    /// ending with "…" when it had to be cut. Returns the columns drawn.
    /// - Complexity: O(characters drawn).
    @discardableResult
    public mutating func draw(_ text: String, at origin: Point, width: Int? = nil, style: CellStyle = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard origin.y >= area.y, origin.y < area.maxY else { return 0 }
        let limit = min(origin.x + (width ?? Int.max - origin.x), area.maxX) - origin.x
        guard limit > 0 else { return 0 }
        if let drawn = drawASCII(text, at: origin, limit: limit, style: style, clip: area) { return drawn }
        // Measured only as far as the limit: the rest of a long text is never walked.
        let truncated = DisplayWidth.exceeds(text, limit)
        let budget = truncated ? limit - 1 : limit
        var x = origin.x
        var full = false
        for character in text {
            if full { break }
            if TerminalGlyphs.isSettled(character) {
                let w = character.isASCII ? 1 : DisplayWidth.of(character.unicodeScalars.first!)
                if x + w > origin.x + budget { break }
                put(character, width: w, at: Point(x: x, y: origin.y), style: style, clip: area)
                x += w
                continue
            }
            // A cluster terminals disagree on: drawn as the cells they agree on (issue 45).
            TerminalGlyphs.cells(of: character) { cell, w in
                guard !full else { return }
                if x + w > origin.x + budget {
                    full = true
                    return
                }
                put(cell, width: w, at: Point(x: x, y: origin.y), style: style, clip: area)
                x += w
            }
        }
        if truncated && limit >= 1 {
            put("…", width: 1, at: Point(x: x, y: origin.y), style: style, clip: area)
            x += 1
        }
        return x - origin.x
    }

    /// Printable ASCII, one column a byte: no grapheme breaking, no width tables. Nil when
    /// `text` has anything else, for the general path.
    private mutating func drawASCII(_ text: String, at origin: Point, limit: Int, style: CellStyle, clip area: Rect) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let truncated = bytes.count > limit
            let count = truncated ? limit - 1 : bytes.count
            var x = origin.x
            for byte in bytes.prefix(count) {
                putScalar(UInt32(byte), at: Point(x: x, y: origin.y), style: style, clip: area)
                x += 1
            }
            if truncated {
                putScalar(0x2026, at: Point(x: x, y: origin.y), style: style, clip: area)  // …
                x += 1
            }
            return x - origin.x
        }
    }

    /// One single-width scalar.
    private mutating func putScalar(_ scalar: UInt32, at point: Point, style: CellStyle, clip: Rect) {
        guard clip.contains(point) else { return }
        clearWide(at: point)
        self[point.x, point.y] = Cell(scalar: scalar, style: style)
    }

    /// A single-line box around `rect` (clipped).
    /// - Complexity: O(perimeter).
    public mutating func box(_ rect: Rect, style: CellStyle = .plain, clip: Rect? = nil) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let area = (clip ?? bounds).intersection(bounds)
        func set(_ glyph: Character, _ x: Int, _ y: Int) { put(glyph, width: 1, at: Point(x: x, y: y), style: style, clip: area) }
        for x in (rect.x + 1)..<(rect.maxX - 1) { set("─", x, rect.y); set("─", x, rect.maxY - 1) }
        for y in (rect.y + 1)..<(rect.maxY - 1) { set("│", rect.x, y); set("│", rect.maxX - 1, y) }
        set("┌", rect.x, rect.y); set("┐", rect.maxX - 1, rect.y)
        set("└", rect.x, rect.maxY - 1); set("┘", rect.maxX - 1, rect.maxY - 1)
    }

    /// Copies `source`'s cells to `origin`, clipped to `clip` and the canvas.
    /// - Complexity: O(cells copied).
    public mutating func blit(_ source: some CellGrid, at origin: Point, clip: Rect? = nil) {
        let area = (clip ?? bounds).intersection(bounds).intersection(
            Rect(x: origin.x, y: origin.y, width: source.gridColumns, height: source.gridRows))
        guard !area.isEmpty else { return }
        if let sourceCells = source.gridCells {
            // Cells already as the canvas holds them: each row is one copy.
            let sourceColumns = source.gridColumns
            cells.withUnsafeMutableBufferPointer { target in
                sourceCells.withUnsafeBufferPointer { from in
                    for y in area.y..<area.maxY {
                        let start = (y - origin.y) * sourceColumns + (area.x - origin.x)
                        let row = UnsafeMutableBufferPointer(rebasing: target[(y * columns + area.x)..<(y * columns + area.maxX)])
                        _ = row.update(fromContentsOf: from[start..<(start + area.width)])
                    }
                }
            }
        } else {
            for y in area.y..<area.maxY {
                for x in area.x..<area.maxX { self[x, y] = source.cell(column: x - origin.x, row: y - origin.y) }
            }
        }
        repairWideEdges(in: area)
    }

    /// Shifts the rows of `rect` up by `count` (down when negative), blanking what is
    /// exposed: what a scrolled region looks like before its new rows are drawn.
    /// - Complexity: O(cells of the rectangle).
    public mutating func scroll(_ rect: Rect, by count: Int) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty, count != 0 else { return }
        let forward = count > 0
        for step in 0..<area.height {
            let y = forward ? area.y + step : area.maxY - 1 - step
            let from = y + count
            for x in area.x..<area.maxX {
                self[x, y] = (from >= area.y && from < area.maxY) ? self[x, from] : .blank
            }
        }
    }

    private mutating func put(_ glyph: Character, width: Int, at point: Point, style: CellStyle, clip: Rect) {
        guard clip.contains(point) else { return }
        if width == 2 {
            // A wide character that does not fit whole is drawn as a space: never half a glyph.
            guard clip.contains(Point(x: point.x + 1, y: point.y)) else {
                self[point.x, point.y] = Cell(" ", style: style)
                return
            }
            clearWide(at: point)
            clearWide(at: Point(x: point.x + 1, y: point.y))
            self[point.x, point.y] = Cell(glyph, style: style)
            self[point.x + 1, point.y] = Cell(" ", style: style, isContinuation: true)
        } else {
            clearWide(at: point)
            self[point.x, point.y] = Cell(glyph, style: style)
        }
    }

    /// Before overwriting a cell, blank the other half of a wide character it belongs to.
    private mutating func clearWide(at point: Point) {
        let cell = self[point.x, point.y]
        if cell.isContinuation, point.x > 0 {
            self[point.x - 1, point.y] = Cell(" ", style: self[point.x - 1, point.y].style)
        } else if point.x + 1 < columns, self[point.x + 1, point.y].isContinuation {
            self[point.x + 1, point.y] = Cell(" ", style: self[point.x + 1, point.y].style)
        }
    }

    /// After a block write, a continuation left at the left edge or a wide head cut at the
    /// right edge is blanked, so no half glyph survives.
    private mutating func repairWideEdges(in area: Rect) {
        for y in area.y..<area.maxY {
            if self[area.x, y].isContinuation && (area.x == 0 || self[area.x - 1, y].code == 0x20 || !isWideHead(area.x - 1, y)) {
                self[area.x, y] = Cell(" ", style: self[area.x, y].style)
            }
            if area.x > 0, isWideHead(area.x - 1, y), !self[area.x, y].isContinuation {
                self[area.x - 1, y] = Cell(" ", style: self[area.x - 1, y].style)
            }
            if area.maxX < columns, self[area.maxX, y].isContinuation, !isWideHead(area.maxX - 1, y) {
                self[area.maxX, y] = Cell(" ", style: self[area.maxX, y].style)
            }
        }
    }

    private func isWideHead(_ x: Int, _ y: Int) -> Bool {
        x + 1 < columns && !self[x, y].isContinuation && self[x, y].displayWidth == 2
    }
}

/// Anything that can be copied into a canvas cell by cell (a prepared image, another canvas).
public protocol CellGrid {
    /// Columns of cells.
    var gridColumns: Int { get }
    /// Rows of cells.
    var gridRows: Int { get }
    /// The cell at `column`, `row` (both in range).
    func cell(column: Int, row: Int) -> Cell
    /// All cells, row by row, when the grid holds them as such (a blit then copies rows).
    var gridCells: [Cell]? { get }
}

extension CellGrid {
    public var gridCells: [Cell]? { nil }
}

extension Canvas: CellGrid {
    /// ``columns``.
    public var gridColumns: Int { columns }
    /// ``rows``.
    public var gridRows: Int { rows }
    /// The cell at `column`, `row`.
    public func cell(column: Int, row: Int) -> Cell { self[column, row] }
    public var gridCells: [Cell]? { cells }
}

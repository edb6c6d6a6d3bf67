/// A cell that stands for part of a picture the presenter draws itself (sixel, or 24-bit
/// symbols): which image, and which row and column of it in cells.
///
/// Stored as an ordinary ``Cell`` (a private-use scalar of plane 15 holding the row and
/// column, the image's id as its 24-bit foreground), so images move through the canvas —
/// blits, clips, scrolls, the diff against the last frame — exactly like text, and only
/// the presenter tells them apart: it sends such cells as pixels, never as characters.
public enum PixelCell {
    /// First scalar of the range (U+F0000, Supplementary Private Use Area-A).
    public static let base: UInt32 = 0xF_0000
    /// Rows and columns an image may have in cells.
    public static let maximumSide = 255
    /// Largest image id (24 bits: the foreground colour holds it).
    public static let maximumID: UInt32 = 0xFF_FFFF

    /// The cell showing row `row`, column `column` of image `id`.
    public static func cell(image id: UInt32, row: Int, column: Int) -> Cell {
        precondition(id > 0 && id <= maximumID && (0..<maximumSide).contains(row) && (0..<maximumSide).contains(column),
                     "PixelCell: image \(id) row \(row) column \(column)")
        return Cell(scalar: base + UInt32(row) << 8 + UInt32(column), style: CellStyle(foreground: .rgb(id)))
    }

    /// The cells of a whole image, row by row.
    public static func cells(image id: UInt32, columns: Int, rows: Int) -> [Cell] {
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns { cells.append(cell(image: id, row: row, column: column)) }
        }
        return cells
    }

    /// What `cell` stands for, or nil for an ordinary cell.
    @inlinable
    public static func decode(_ cell: Cell) -> (image: UInt32, row: Int, column: Int)? {
        let offset = cell.code &- base
        guard offset < UInt32(maximumSide) << 8, case .rgb(let id) = cell.style.foreground else { return nil }
        return (id, Int(offset >> 8), Int(offset & 0xFF))
    }
}

/// A picture the presenter draws for ``PixelCell`` cells: one complete terminal image per
/// row of cells (sixel strips, or text in 24-bit colour), so any row can be sent on its own.
public struct PixelImage: Sendable, Hashable {
    /// The number ``PixelCell`` cells name the picture by.
    public let id: UInt32
    /// Columns of cells the picture covers.
    public let columns: Int
    /// Rows of cells the picture covers (one strip each).
    public let rows: Int
    /// For each row of cells, the bytes that draw it with the cursor at its left cell.
    public let strips: [[UInt8]]
    /// The same picture as ordinary cells (a symbol mosaic), row by row: shown where a
    /// strip cannot be drawn, or not yet (while the frame's budget for pixels is spent).
    public let fallback: [Cell]
    /// A strip may paint into the row below its own (sixel draws in bands of 6 pixels), or
    /// the terminal may scroll when it is drawn on the screen's last line (an inline
    /// image): never drawn there.
    public let reachesBelowItsRow: Bool
    /// A strip leaves something that stays on the screen until it is deleted, whatever is
    /// written over its cells: a kitty placement (`a=p`), where sixel pixels are simply
    /// overwritten by text. The presenter then keeps where each one is and deletes it when
    /// its cells show something else (``lingers`` strips must not move the cursor).
    public let lingers: Bool
    /// The whole picture as one terminal image, drawn with the cursor at its top-left cell:
    /// sent instead of the strips when every row is drawn in the same frame. A terminal
    /// pays for each image besides its bytes: xterm took a page of 20 sixel thumbnails in
    /// 16 ms as 20 images and in 45 ms as 140 strips (DECISIONS D-077). Nil: strips only.
    public let whole: [UInt8]?
    /// What the terminal's work on one image, besides its bytes, is worth in bytes, before
    /// anything is learned: a frame's pixel budget counts it for every strip or whole image
    /// it sends until the terminal's answers price an image themselves (TerminalFront's
    /// `ParseCostModel`, D-081). xterm's cost of a sixel image was about 0.22 ms beside
    /// 0.06 ms a kilobyte on the Intel machine (D-077): an image's parse worth about 3.7 KB,
    /// twice a thumbnail strip's own bytes; on the AMD machine an image was worth 0.87 KB.
    public let costPerImage: Int

    /// A picture of `strips.count` rows of `columns` cells; `fallback` holds `columns × rows` cells.
    public init(id: UInt32, columns: Int, strips: [[UInt8]], fallback: [Cell], reachesBelowItsRow: Bool, lingers: Bool = false,
                whole: [UInt8]? = nil, costPerImage: Int = 0) {
        precondition(fallback.count == columns * strips.count, "PixelImage: \(fallback.count) fallback cells for \(columns)×\(strips.count)")
        self.id = id
        self.columns = columns
        rows = strips.count
        self.strips = strips
        self.fallback = fallback
        self.reachesBelowItsRow = reachesBelowItsRow
        self.lingers = lingers
        self.whole = whole
        self.costPerImage = costPerImage
    }

    /// Bytes held.
    public var byteCount: Int { strips.reduce(0) { $0 + $1.count } + (whole?.count ?? 0) + fallback.count * MemoryLayout<Cell>.stride }
}

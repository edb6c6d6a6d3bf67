/// How colours are stored in a prepared image, chosen from what the terminal can show.
public enum CellColorMode: String, Sendable, Hashable, CaseIterable {
    /// 24-bit RGB (terminals with direct colour, e.g. `xterm-direct`).
    case truecolor
    /// Indices 16–255 of the xterm palette (chafa's INDEXED_240: skips the 16 theme colours).
    case palette240
    /// Indices 0–15.
    case palette16
    /// Indices 0–7.
    case palette8
    /// Glyphs only, no colour (`NO_COLOR`, monochrome terminals).
    case monochrome
}

/// A prepared image: what the terminal can draw directly, for one size.
///
/// The terminal's counterpart of a decoded bitmap: a grid of cells, each a glyph with a
/// foreground and a background. Immutable and Sendable, so a worker can build it and the
/// main thread can draw it. About 12 bytes a cell: a 40×12 thumbnail is under 6 KB.
public struct CellImage: Sendable, Hashable {
    public let columns: Int
    public let rows: Int
    public let colorMode: CellColorMode
    /// Unicode scalar values, row by row.
    public let glyphs: [UInt32]
    /// Where chafa sets no colour (the foreground of a blank cell): draw the default.
    public static let noColor = UInt32.max

    /// 0xRRGGBB in truecolor mode, a palette index otherwise, or ``noColor``.
    public let foreground: [UInt32]
    public let background: [UInt32]

    public init(columns: Int, rows: Int, colorMode: CellColorMode, glyphs: [UInt32], foreground: [UInt32], background: [UInt32]) {
        precondition(glyphs.count == columns * rows && foreground.count == glyphs.count && background.count == glyphs.count,
                     "CellImage: \(glyphs.count) glyphs for \(columns)×\(rows) cells")
        self.columns = columns
        self.rows = rows
        self.colorMode = colorMode
        self.glyphs = glyphs
        self.foreground = foreground
        self.background = background
    }

    /// Bytes held: the cache's cost for this image.
    public var byteCost: Int { glyphs.count * 12 + 64 }

    public func rawCell(column: Int, row: Int) -> (glyph: Character, foreground: UInt32, background: UInt32) {
        let i = row * columns + column
        return (Character(Unicode.Scalar(glyphs[i]) ?? " "), foreground[i], background[i])
    }

    /// The glyphs of one row as text (for tests and logs).
    public func text(row: Int) -> String {
        String(String.UnicodeScalarView(glyphs[(row * columns)..<((row + 1) * columns)].compactMap(Unicode.Scalar.init)))
    }
}

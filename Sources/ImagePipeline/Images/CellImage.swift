import CellCanvas

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
/// The terminal's counterpart of a decoded bitmap: a grid of canvas cells (a scalar and a
/// style each), made once off the main thread, so that drawing it is a copy of rows: the
/// same cell value goes from preparation to the terminal, with no conversion per cell per
/// frame. Immutable and Sendable, so a worker can build it and the main thread can draw it.
public struct CellImage: Sendable, Hashable {
    /// Columns of cells.
    public let columns: Int
    /// Rows of cells.
    public let rows: Int
    /// The colours its cells use.
    public let colorMode: CellColorMode
    /// Row by row.
    public let cells: [Cell]
    /// The kitty image these cells are placeholders of (``KittyGraphics``), or the picture
    /// they stand for (`PixelCell`: sixel, iTerm2, 24-bit symbols); nil for a symbol
    /// mosaic the cells themselves show.
    public let graphicID: UInt32?
    /// The escape sequences that send that image to the terminal: carried from the worker
    /// to the store, which sends them once and caches the image without them.
    public private(set) var transmission: [UInt8] = []
    /// Where chafa sets no colour (the foreground of a blank cell): draw the default.
    public static let noColor = UInt32.max

    /// The strips these cells stand for, carried from the worker to the store, which hands
    /// them to the presenter once (``AssetStore/takePixelImageChanges(keeping:)``) and
    /// caches the image without them.
    public private(set) var pixelImage: PixelImage?

    /// What the terminal holds for this image (a kitty image's decoded pixels), or the
    /// presenter (a picture's strips and fallback), counted in ``byteCost`` so that the
    /// cache's limit bounds that memory too.
    public let terminalBytes: Int

    /// Placeholder cells of kitty image `id` (`pixels` in the terminal once decoded), and
    /// the sequences that transmit it.
    public init(kittyImage id: UInt32, columns: Int, rows: Int, pixels: Int, transmission: [UInt8]) {
        self.columns = columns
        self.rows = rows
        colorMode = .truecolor
        cells = KittyGraphics.placeholderCells(id: id, columns: columns, rows: rows)
        graphicID = id
        terminalBytes = pixels * 4
        self.transmission = transmission
    }

    /// Cells standing for image `id` that the presenter draws from `strips`, one per row of
    /// cells (`PixelCell`): sixel, iTerm2 images, or 24-bit symbols (``TextStrips``); or
    /// kitty placements of an image sent first by `transmission` (its decoded `pixels` then
    /// held by the terminal), whose strips linger.
    public init(pixelImage id: UInt32, columns: Int, strips: [[UInt8]], fallback: [Cell], reachesBelowItsRow: Bool,
                lingers: Bool = false, transmission: [UInt8] = [], pixels: Int = 0, whole: [UInt8]? = nil, costPerImage: Int = 0) {
        let image = PixelImage(id: id, columns: columns, strips: strips, fallback: fallback, reachesBelowItsRow: reachesBelowItsRow,
                               lingers: lingers, whole: whole, costPerImage: costPerImage)
        self.columns = columns
        rows = image.rows
        colorMode = .truecolor
        cells = PixelCell.cells(image: id, columns: columns, rows: image.rows)
        graphicID = id
        terminalBytes = image.byteCount + pixels * 4
        pixelImage = image
        self.transmission = transmission
    }

    /// The same image without its transmission or strips (once handed over, nothing here
    /// needs them again).
    public var sent: CellImage {
        var copy = self
        copy.transmission = []
        copy.pixelImage = nil
        return copy
    }

    /// Something for the terminal must go with it before its cells are shown.
    public var hasTerminalPayload: Bool { !transmission.isEmpty || pixelImage != nil }

    /// Cells from a converter's arrays: `glyphs` are scalar values; each colour is 0xRRGGBB
    /// in truecolor mode, a palette index otherwise, or ``noColor``.
    public init(columns: Int, rows: Int, colorMode: CellColorMode, glyphs: [UInt32], foreground: [UInt32], background: [UInt32]) {
        precondition(glyphs.count == columns * rows && foreground.count == glyphs.count && background.count == glyphs.count,
                     "CellImage: \(glyphs.count) glyphs for \(columns)×\(rows) cells")
        self.columns = columns
        self.rows = rows
        self.colorMode = colorMode
        graphicID = nil
        terminalBytes = 0
        func color(_ value: UInt32) -> Color {
            guard value != Self.noColor else { return .default }
            return colorMode == .truecolor ? .rgb(value) : .palette(UInt8(truncatingIfNeeded: value))
        }
        cells = glyphs.indices.map { i in
            Cell(scalar: glyphs[i], style: CellStyle(foreground: color(foreground[i]), background: color(background[i])))
        }
    }

    /// Bytes held: the cache's cost for this image.
    public var byteCost: Int { cells.count * MemoryLayout<Cell>.stride + transmission.count + terminalBytes + 64 }

    /// The scalar values, row by row (for tests and logs).
    public var glyphs: [UInt32] { cells.map { $0.code } }
    /// The colour numbers as the converter made them (for tests and logs).
    public var foreground: [UInt32] { cells.map { Self.number($0.style.foreground) } }
    /// The background colour numbers as the converter made them (for tests and logs).
    public var background: [UInt32] { cells.map { Self.number($0.style.background) } }

    /// One cell as the converter made it: its glyph and colour numbers.
    public func rawCell(column: Int, row: Int) -> (glyph: Character, foreground: UInt32, background: UInt32) {
        let cell = cells[row * columns + column]
        return (Character(Unicode.Scalar(cell.code) ?? " "), Self.number(cell.style.foreground), Self.number(cell.style.background))
    }

    private static func number(_ color: Color) -> UInt32 {
        switch color {
        case .default: noColor
        case .palette(let index): UInt32(index)
        case .rgb(let value): value
        }
    }

    /// The glyphs of one row as text (for tests and logs).
    public func text(row: Int) -> String {
        String(String.UnicodeScalarView(glyphs[(row * columns)..<((row + 1) * columns)].compactMap(Unicode.Scalar.init)))
    }
}

/// A terminal colour: the terminal's default, a palette index, or 24-bit RGB.
/// The front maps it to what the terminal supports.
public enum Color: Hashable, Sendable {
    case `default`
    case palette(UInt8)
    case rgb(UInt32)

    public static let black = Color.palette(0), red = Color.palette(1), green = Color.palette(2), yellow = Color.palette(3)
    public static let blue = Color.palette(4), magenta = Color.palette(5), cyan = Color.palette(6), white = Color.palette(7)
}

/// Colours and attributes of one cell.
public struct CellStyle: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(foreground: Color = .default, background: Color = .default, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
}

/// One cell of the screen. A double-width character occupies its cell and the next,
/// which is marked as its continuation and never drawn on its own.
///
/// A plain value of a few bytes with no reference inside: the glyph is a Unicode scalar
/// value, or the id of a grapheme cluster interned in ``GraphemeTable`` (flags, emoji with
/// modifiers, combining sequences), so copying, comparing and clearing cells never
/// allocates or retains, and a canvas is one flat buffer a frame can reuse.
public struct Cell: Hashable, Sendable {
    /// A scalar value, or ``GraphemeTable/internedBit`` plus an interned cluster's id.
    public var code: UInt32
    public var style: CellStyle
    public var isContinuation: Bool

    public init(_ glyph: Character = " ", style: CellStyle = .plain, isContinuation: Bool = false) {
        code = GraphemeTable.code(for: glyph)
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A cell showing one scalar: the fast path (no grapheme breaking, no table).
    @inlinable
    public init(scalar: UInt32, style: CellStyle = .plain, isContinuation: Bool = false) {
        code = scalar
        self.style = style
        self.isContinuation = isContinuation
    }

    /// The grapheme cluster shown (a space for blank cells).
    public var glyph: Character {
        get { GraphemeTable.character(for: code) }
        set { code = GraphemeTable.code(for: newValue) }
    }

    /// Calls `body` with each scalar of the glyph, in order, without allocating for a
    /// single-scalar glyph.
    @inlinable
    public func forEachScalar(_ body: (UInt32) -> Void) {
        if code & GraphemeTable.internedBit == 0 {
            body(code)
        } else {
            for scalar in glyph.unicodeScalars { body(scalar.value) }
        }
    }

    /// Columns the glyph takes (0, 1 or 2).
    public var displayWidth: Int {
        if code & GraphemeTable.internedBit == 0 { return Unicode.Scalar(code).map(DisplayWidth.of) ?? 1 }
        return DisplayWidth.of(glyph)
    }

    public static let blank = Cell(scalar: 0x20)
}

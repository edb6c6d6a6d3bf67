/// A terminal colour: the terminal's default, a palette index, or 24-bit RGB.
/// The front maps it to what the terminal supports.
public enum Color: Hashable, Sendable {
    /// Whatever the terminal's theme uses for text or background.
    case `default`
    /// An index into the terminal's palette (0–15 follow the theme; 16–255 are xterm's).
    case palette(UInt8)
    /// A 24-bit colour, `0xRRGGBB`; shown as the nearest palette colour where the terminal
    /// has no direct colour.
    case rgb(UInt32)

    /// Palette colour 0 (the theme's black).
    public static let black = Color.palette(0)
    /// Palette colour 1 (the theme's red).
    public static let red = Color.palette(1)
    /// Palette colour 2 (the theme's green).
    public static let green = Color.palette(2)
    /// Palette colour 3 (the theme's yellow).
    public static let yellow = Color.palette(3)
    /// Palette colour 4 (the theme's blue).
    public static let blue = Color.palette(4)
    /// Palette colour 5 (the theme's magenta).
    public static let magenta = Color.palette(5)
    /// Palette colour 6 (the theme's cyan).
    public static let cyan = Color.palette(6)
    /// Palette colour 7 (the theme's white).
    public static let white = Color.palette(7)
}

/// Colours and attributes of one cell.
public struct CellStyle: Hashable, Sendable {
    /// The colour of the glyph.
    public var foreground: Color
    /// The colour behind the glyph.
    public var background: Color
    /// Bold (or bright, on terminals that show bold that way).
    public var bold: Bool
    /// Faint.
    public var dim: Bool
    /// Foreground and background swapped by the terminal.
    public var reverse: Bool
    /// Underlined.
    public var underline: Bool

    /// A style; every part defaults to the terminal's own.
    public init(foreground: Color = .default, background: Color = .default, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default colours, no attributes.
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
    /// How the glyph is drawn.
    public var style: CellStyle
    /// The right half of a double-width character in the cell before: drawn by it, never on its own.
    public var isContinuation: Bool

    /// A cell showing `glyph` (a grapheme cluster is interned in ``GraphemeTable``).
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

    /// A space in the default colours: what an empty canvas holds.
    public static let blank = Cell(scalar: 0x20)
}

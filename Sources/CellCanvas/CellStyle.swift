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
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster (a space for blank cells).
    public var glyph: Character
    public var style: CellStyle
    public var isContinuation: Bool

    public init(_ glyph: Character = " ", style: CellStyle = .plain, isContinuation: Bool = false) {
        self.glyph = glyph
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}

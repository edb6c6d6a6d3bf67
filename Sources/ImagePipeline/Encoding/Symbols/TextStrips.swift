import CellCanvas

/// A symbol mosaic in 24-bit colour as text the presenter writes itself, one strip per row
/// of cells, so that its colours never pass through ncurses' colour pairs.
///
/// ncurses needs a pair per foreground × background, has at most 65,536, and scans the
/// whole screen each time it redefines one: a flung grid of 24-bit mosaics used them up in
/// seconds and hitched (DECISIONS.md, D-033). Written as SGR `38;2` / `48;2` sequences
/// (only where a cell's colours differ from its left neighbour's), the same cells cost no
/// pair at all; the presenter draws them like sixel strips (`PixelCell`, D-035), with the
/// mosaic in the 256-colour palette as the fallback.
public enum TextStrips {
    /// One strip per row of `cells` (`columns` wide): SGR and glyphs, ending with a reset;
    /// each row starts from a reset, then writes only the colours that change.
    public static func strips(of cells: [Cell], columns: Int) -> [[UInt8]] {
        precondition(columns > 0 && cells.count % columns == 0, "TextStrips: \(cells.count) cells, \(columns) columns")
        return stride(from: 0, to: cells.count, by: columns).map { start in
            var out: [UInt8] = []
            out.reserveCapacity(columns * 12)
            var current: CellStyle?
            for cell in cells[start..<(start + columns)] {
                if cell.style != current {
                    out += sgr(cell.style, after: current)
                    current = cell.style
                }
                cell.forEachScalar { scalar in
                    guard let character = Unicode.Scalar(scalar) else { return }
                    out += Array(String(character).utf8)
                }
            }
            out += Array("\u{1B}[0m".utf8)
            return out
        }
    }

    /// The same cells with their colours in the xterm 256-colour palette (what ncurses can
    /// show with few pairs).
    public static func paletteCells(_ cells: [Cell]) -> [Cell] {
        cells.map { cell in
            var copy = cell
            copy.style.foreground = palette(cell.style.foreground)
            copy.style.background = palette(cell.style.background)
            return copy
        }
    }

    private static func palette(_ color: Color) -> Color {
        if case .rgb(let value) = color { return .palette(UInt8(ColorPalette.xterm256(value))) }
        return color
    }

    /// The SGR that turns `previous` into `style`: only the colours that changed, unless
    /// an attribute did (then a reset and everything).
    private static func sgr(_ style: CellStyle, after previous: CellStyle?) -> [UInt8] {
        var parts: [String] = []
        if let previous, previous.bold == style.bold, previous.dim == style.dim,
           previous.underline == style.underline, previous.reverse == style.reverse {
            if style.foreground != previous.foreground { parts.append(colour(style.foreground, base: 30) ?? "39") }
            if style.background != previous.background { parts.append(colour(style.background, base: 40) ?? "49") }
        } else {
            parts.append("0")
            if style.bold { parts.append("1") }
            if style.dim { parts.append("2") }
            if style.underline { parts.append("4") }
            if style.reverse { parts.append("7") }
            if let foreground = colour(style.foreground, base: 30) { parts.append(foreground) }
            if let background = colour(style.background, base: 40) { parts.append(background) }
        }
        return Array("\u{1B}[\(parts.joined(separator: ";"))m".utf8)
    }

    /// The SGR parameters of `color` (nil for the terminal's default).
    private static func colour(_ color: Color, base: Int) -> String? {
        switch color {
        case .default: nil
        case .palette(let index): "\(base + 8);5;\(index)"
        case .rgb(let value): "\(base + 8);2;\(value >> 16 & 0xFF);\(value >> 8 & 0xFF);\(value & 0xFF)"
        }
    }
}

import CellCanvas

/// What colours the terminal can show, from terminfo and the environment.
public enum ColorCapability: String, Sendable, CaseIterable {
    /// 24-bit colours (e.g. TERM=xterm-direct).
    case direct
    /// xterm's 256-colour palette.
    case palette256
    /// The 16 theme colours (bright ones included).
    case palette16
    /// The 8 basic colours.
    case palette8
    /// No colour: a monochrome terminal, or NO_COLOR set.
    case none

    /// - Parameters:
    ///   - colors: terminfo's colour count (ncurses' COLORS).
    ///   - directFlag: terminfo's RGB flag.
    ///   - noColor: `NO_COLOR` is set: no colour whatever the terminal has.
    public static func detect(colors: Int, directFlag: Bool, noColor: Bool) -> ColorCapability {
        if noColor || colors < 8 { return .none }
        if directFlag { return .direct }
        if colors >= 256 { return .palette256 }
        return colors >= 16 ? .palette16 : .palette8
    }

    /// The terminal's colour number for `color` (-1 for the default colour).
    public func number(for color: Color) -> Int32 {
        switch (self, color) {
        case (.none, _), (_, .default): return -1
        case (.direct, .rgb(let rgb)): return Int32(rgb & 0xFF_FFFF)
        case (.direct, .palette(let index)): return Int32(Self.rgbOfXterm(Int(index)))
        case (.palette256, .rgb(let rgb)): return Int32(ColorPalette.xterm256(rgb))
        case (.palette256, .palette(let index)): return Int32(index)
        case (.palette16, .palette(let index)) where index < 16, (.palette8, .palette(let index)) where index < 8: return Int32(index)
        case (.palette16, _): return Int32(ColorPalette.basic(rgbValue(color), count: 16))
        case (.palette8, _): return Int32(ColorPalette.basic(rgbValue(color), count: 8))
        }
    }

    private func rgbValue(_ color: Color) -> UInt32 {
        switch color {
        case .rgb(let rgb): rgb
        case .palette(let index): Self.rgbOfXterm(Int(index))
        case .default: 0
        }
    }

    /// The usual RGB of xterm palette entry `index`.
    static func rgbOfXterm(_ index: Int) -> UInt32 {
        func pack(_ r: Int, _ g: Int, _ b: Int) -> UInt32 { UInt32(r << 16 | g << 8 | b) }
        if index < 16 {
            let c = ColorPalette.standard[index]
            return pack(c.0, c.1, c.2)
        }
        if index >= 232 {
            let v = 8 + (index - 232) * 10
            return pack(v, v, v)
        }
        let levels = [0, 95, 135, 175, 215, 255], i = index - 16
        return pack(levels[i / 36], levels[i / 6 % 6], levels[i % 6])
    }
}

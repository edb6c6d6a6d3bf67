import CTerminalWidth

/// How many terminal columns a character takes: 0, 1 or 2 — as the C library's `wcwidth`
/// says, because ncurses moves its cursor by `wcwidth` and tmux and xterm draw by it: a
/// width table of our own that disagreed with it (⭐, ⌚, 🪰 counted 1, an emoji with a skin
/// tone 2) put the next cell's border a column off (issue 45).
///
/// A grapheme cluster counts as the cells it becomes on a terminal (``TerminalGlyphs``):
/// emoji sequences the terminals disagree on are drawn as their first emoji, so every
/// terminal gives them the same width.
public enum DisplayWidth {
    /// The columns `character` takes once drawn (``TerminalGlyphs/cells(of:_:)``).
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first { return TerminalGlyphs.isDropped(only) ? 0 : of(only) }
        var total = 0
        TerminalGlyphs.cells(of: character) { _, width in total += width }
        return total
    }

    /// The columns `scalar` takes: the C library's `wcwidth` in a UTF-8 locale (0 for
    /// controls and combining marks, 2 for wide characters), read from a table built once.
    /// - Complexity: O(1).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }  // ASCII: no lookup
        if v < Table.count { return Int(Table.widths[Int(v)]) }
        return fallback(scalar)
    }

    /// Columns a string takes.
    /// - Complexity: O(characters).
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// Whether `text` takes more than `columns` columns, read only as far as needed: a long
    /// title drawn into a cell of 30 columns costs 31 columns of grapheme breaking, not its
    /// whole length, every frame (issue 43's text cost).
    /// - Complexity: O(characters up to the first past `columns`).
    public static func exceeds(_ text: some StringProtocol, _ columns: Int) -> Bool {
        var total = 0
        for character in text {
            total += of(character)
            if total > columns { return true }
        }
        return false
    }

    /// `wcwidth` for every scalar below ``count``, asked once under the C.UTF-8 locale
    /// (a thread's own, so the process's locale is left alone); where the C library cannot
    /// say (no UTF-8 locale), the rules of ``fallback(_:)``.
    enum Table {
        /// The Basic and Supplementary Multilingual and Ideographic Planes (256 KiB).
        static let count = 0x40000
        static let widths: [UInt8] = {
            var table = [UInt8](repeating: 1, count: count)
            let asked = table.withUnsafeMutableBufferPointer { terminal_width_table($0.baseAddress, UInt32(count)) }
            if asked == 0 { return table }
            for v in 0..<count { table[v] = UInt8(Unicode.Scalar(UInt32(v)).map(fallback) ?? 0) }
            return table
        }()
    }

    /// East Asian Width's wide ranges and the emoji blocks (wcwidth's rules) for what the
    /// table does not hold, or where no UTF-8 locale exists.
    static func fallback(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if (0xE0000...0xE0FFF).contains(v) { return 0 }  // tags and variation selectors supplement
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }
}

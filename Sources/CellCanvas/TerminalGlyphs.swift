/// What a grapheme cluster becomes on a terminal that every terminal agrees on (issue 45).
///
/// Terminals disagree on emoji sequences: tmux 3.3 and xterm add up each scalar's
/// `wcwidth` (🏳️‍🌈 is 🏳 1 + 🌈 2 = 3 columns, 👋🏽 2 + 2 = 4, 1️⃣ 1), kitty draws the
/// sequence as one glyph of 2; ncurses takes one spacing character a cell. So a cluster is
/// drawn as cells of one spacing scalar each, with its combining marks:
/// - a ZWJ sequence as its first emoji (👩‍👩‍👧 → 👩, 🏳️‍🌈 → 🏳);
/// - without variation selectors (☺️ → ☺: a text-default symbol keeps its one column),
///   skin-tone modifiers, tag characters (🏴󠁧󠁢󠁳󠁣󠁴󠁿 → 🏴) or the keycap mark (1️⃣ → 1);
/// - without zero-width and invisible format characters (ZWSP, ZWNJ, word joiner, BOM,
///   U+061C), which some terminals draw as a box;
/// - a flag's two regional indicators as two cells of one column (tmux and xterm draw two
///   letters, kitty one flag over the same two columns);
/// - at most four combining marks on a base (a "Zalgo" title does not grow a cell without
///   end; tmux keeps only so many).
/// Every cell's width is then its spacing scalar's ``DisplayWidth/of(_:)-(Unicode.Scalar)``,
/// which is what ncurses, tmux and xterm count.
public enum TerminalGlyphs {
    /// Combining marks kept on one base.
    public static let maximumMarks = 4

    /// Calls `body` with each cell `character` is drawn as (a cluster of one spacing
    /// scalar and its marks) and its width; nothing for a cluster of nothing visible.
    /// - Complexity: O(scalars in `character`).
    public static func cells(of character: Character, _ body: (Character, Int) -> Void) {
        var current = String.UnicodeScalarView()
        var width = 0, marks = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0x200D { break }  // ZWJ: the sequence is drawn as its first part
            if isDropped(scalar) { continue }
            let w = DisplayWidth.of(scalar)
            if w == 0 {
                if !current.isEmpty && marks < maximumMarks {
                    current.append(scalar)
                    marks += 1
                }
                continue
            }
            if !current.isEmpty { body(Character(String(current)), width) }
            current = String.UnicodeScalarView([scalar])
            width = w
            marks = 0
        }
        if !current.isEmpty { body(Character(String(current)), width) }
    }

    /// Whether `character` is already one cell as drawn (what ``cells(of:_:)`` would give
    /// back unchanged): the common case, drawn without building anything.
    public static func isSettled(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F }
        let scalars = character.unicodeScalars
        guard let first = scalars.first, !isDropped(first), DisplayWidth.of(first) > 0 else { return false }
        var marks = 0
        for scalar in scalars.dropFirst() {
            if scalar.value == 0x200D || isDropped(scalar) || DisplayWidth.of(scalar) != 0 { return false }
            marks += 1
        }
        return marks <= maximumMarks
    }

    /// Scalars never drawn: variation selectors, skin-tone modifiers, tag characters, the
    /// keycap mark, zero-width and invisible format characters.
    public static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF: true  // variation selectors
        case 0x1F3FB...0x1F3FF: true  // skin-tone modifiers
        case 0xE0000...0xE007F: true  // tags
        case 0x20E3: true  // combining enclosing keycap
        case 0x200B...0x200F, 0x2060...0x2064, 0xFEFF, 0x061C, 0x180E, 0x00AD: true  // zero-width and invisible
        default: false
        }
    }
}

import CellCanvas
import Testing

/// Every cluster drawn takes the columns every terminal gives it (issue 45): sequences the
/// terminals disagree on are drawn as cells they agree on, each counted as wcwidth counts.
@Suite struct TerminalGlyphsTests {
    func cells(_ text: String) -> [(String, Int)] {
        var out: [(String, Int)] = []
        for character in text { TerminalGlyphs.cells(of: character) { out.append((String($0), $1)) } }
        return out
    }

    @Test func emojiSequencesBecomeTheirFirstEmoji() {
        #expect(cells("👩‍👩‍👧").map(\.0) == ["👩"] && cells("👩‍👩‍👧").map(\.1) == [2], "ZWJ family: the first person")
        #expect(cells("🏳️‍🌈").map(\.0) == ["🏳"] && DisplayWidth.of("🏳️‍🌈") == 1, "rainbow flag: a white flag, text-default, one column")
        #expect(cells("👋🏽").map(\.0) == ["👋"] && DisplayWidth.of("👋🏽") == 2, "skin tone dropped")
        #expect(cells("1️⃣").map(\.0) == ["1"] && DisplayWidth.of("1️⃣") == 1, "keycap: its digit")
        #expect(cells("☺️").map(\.0) == ["☺"] && DisplayWidth.of("☺️") == 1, "VS16 dropped: the symbol keeps its one column")
        #expect(cells("☺︎").map(\.0) == ["☺"], "VS15 dropped")
        #expect(cells("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}").map(\.0) == ["🏴"], "tag sequence: the black flag")
        #expect(cells("🇯🇵").map(\.0) == ["🇯", "🇵"] && DisplayWidth.of("🇯🇵") == 2, "a flag: two one-column cells")
    }

    @Test func invisibleCharactersTakeNoCellAndMarksStayOnTheirBase() {
        #expect(cells("a\u{200B}b\u{2060}c\u{FEFF}\u{061C}").map(\.0) == ["a", "b", "c"])
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        let zalgo = "e" + String(repeating: "\u{0301}", count: 30)
        #expect(cells(zalgo).count == 1 && cells(zalgo)[0].0.unicodeScalars.count == 1 + TerminalGlyphs.maximumMarks)
        #expect(DisplayWidth.of("e\u{0301}") == 1 && DisplayWidth.of("\u{05E9}\u{05C1}") == 1, "Hebrew shin with its dot")
        #expect(DisplayWidth.of("نصّ") == 2, "Arabic with a shadda: two letters")
        #expect(DisplayWidth.of("日本語") == 6 && DisplayWidth.of("ｶ") == 1)
    }

    @Test func theCanvasDrawsTheCellsAndKeepsItsWidth() {
        var canvas = Canvas(columns: 12, rows: 2)
        #expect(canvas.draw("A👩‍👩‍👧🏳️‍🌈1️⃣B", at: Point(x: 0, y: 0)) == 6)
        #expect(canvas.rowTexts[0].hasPrefix("A👩🏳1B"))
        // Cut to a width, the ellipsis lands where the columns say.
        #expect(canvas.draw("👋🏽👋🏽👋🏽👋🏽👋🏽👋🏽👋🏽", at: Point(x: 0, y: 1), width: 7) == 7)
        #expect(canvas.rowTexts[1].hasPrefix("👋👋👋…"))
    }

    /// The table is the C library's: the emoji the old hand-made one missed are wide.
    @Test func widthsAreTheCLibrarys() {
        for scalar in ["⭐", "⌚", "🪰", "🫠", "🥲"] { #expect(DisplayWidth.of(Character(scalar)) == 2, "\(scalar)") }
        for scalar in ["✈", "☺", "♥", "…", "│", "é"] { #expect(DisplayWidth.of(Character(scalar)) == 1, "\(scalar)") }
    }
}

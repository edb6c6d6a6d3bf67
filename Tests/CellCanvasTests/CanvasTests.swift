import CellCanvas
import Testing

@Suite struct CanvasTests {
    @Test func textIsClippedAndTruncatedByDisplayWidth() {
        var canvas = Canvas(columns: 12, rows: 3)
        #expect(canvas.draw("Saint Lucia, Caribbean", at: Point(x: 1, y: 0), width: 10) == 10)
        #expect(canvas.draw("Cusco", at: Point(x: 1, y: 1), width: 10) == 5)
        #expect(canvas.draw("Reykjavík, Iceland", at: Point(x: 8, y: 2)) == 4)
        #expect(canvas.rowTexts == [" Saint Luc… ", " Cusco      ", "        Rey…"])
    }

    /// Truncation asks only whether a text is wider than its room, reading no further than
    /// that; a long text draws as its short prefix did, with the ellipsis.
    @Test func aLongTextIsMeasuredOnlyAsFarAsItsRoom() {
        #expect(!DisplayWidth.exceeds("日本", 4) && DisplayWidth.exceeds("日本語", 4))
        #expect(!DisplayWidth.exceeds("", 0) && DisplayWidth.exceeds("é", 0))
        let long = String(repeating: "é👩‍👩‍👧", count: 5_000)
        #expect(DisplayWidth.exceeds(long, 10))
        var canvas = Canvas(columns: 12, rows: 1), short = Canvas(columns: 12, rows: 1)
        canvas.draw(long, at: Point(x: 0, y: 0), width: 10)
        short.draw(String(long.prefix(12)), at: Point(x: 0, y: 0), width: 10)
        #expect(canvas == short && canvas.rowTexts[0].contains("…"))
    }

    @Test func wideCharactersTakeTwoColumnsAndNeverSplit() {
        var canvas = Canvas(columns: 8, rows: 3)
        #expect(canvas.draw("京都 Kyoto", at: Point(x: 0, y: 0)) == 8)
        #expect(canvas.rowTexts[0] == "京都 Ky…")  // 2 + 2 + 1 + 2 + 1 columns
        #expect(canvas[1, 0].isContinuation && !canvas[0, 0].isContinuation)
        // Five columns for "京都京" (6 wide): two ideographs and the ellipsis.
        #expect(canvas.draw("京都京", at: Point(x: 0, y: 1), width: 5) == 5)
        #expect(canvas.rowTexts[1] == "京都…   ")
        // Emoji shown as emoji by default are wide, a text-default one (🏔) is not (as
        // wcwidth, ncurses and tmux count); combining accents take no column.
        #expect(canvas.draw("😀e\u{301}", at: Point(x: 0, y: 2)) == 3)
        #expect(DisplayWidth.of("😀") == 2 && DisplayWidth.of("🏔") == 1 && DisplayWidth.of("e\u{301}") == 1 && DisplayWidth.of("한국") == 4)
        // Overwriting half of a wide character blanks the other half.
        canvas.draw("x", at: Point(x: 1, y: 0))
        #expect(canvas.rowTexts[0].hasPrefix(" x都"))
    }

    @Test func clipRectLimitsEveryDrawing() {
        var canvas = Canvas(columns: 10, rows: 4)
        let clip = Rect(x: 2, y: 1, width: 5, height: 2)
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 4), with: Cell("."))
        canvas.draw("Patagonia", at: Point(x: 0, y: 1), clip: clip)
        canvas.box(Rect(x: 3, y: 1, width: 3, height: 3), clip: clip)
        // Without a width, text is truncated at the clip's edge; the box's bottom row is outside.
        #expect(canvas.rowTexts == ["..........", "..t┌─┐…...", "...│.│....", ".........."])
    }

    @Test func boxesFillsAndStyles() {
        var canvas = Canvas(columns: 6, rows: 3)
        let red = CellStyle(foreground: .red, bold: true)
        canvas.box(canvas.bounds, style: red)
        canvas.fill(Rect(x: 1, y: 1, width: 4, height: 1), with: Cell("#", style: CellStyle(background: .rgb(0x336699))))
        #expect(canvas.rowTexts == ["┌────┐", "│####│", "└────┘"])
        #expect(canvas[0, 0].style == red)
        #expect(canvas[2, 1].style.background == .rgb(0x336699))
    }

    @Test func blitCopiesAGridClipped() {
        var image = Canvas(columns: 3, rows: 2, fill: Cell("▀", style: CellStyle(foreground: .rgb(0xFF0000), background: .rgb(0x0000FF))))
        image[0, 0] = Cell("▄")
        var canvas = Canvas(columns: 5, rows: 3)
        canvas.blit(image, at: Point(x: 3, y: 2))
        #expect(canvas.rowTexts == ["     ", "     ", "   ▄▀"])
        #expect(canvas[4, 2].style.foreground == .rgb(0xFF0000))
    }

    @Test func scrollingARegionShiftsRowsAndBlanksTheExposedOnes() {
        var canvas = Canvas(columns: 3, rows: 4)
        for y in 0..<4 { canvas.draw(String(repeating: "\(y)", count: 3), at: Point(x: 0, y: y)) }
        canvas.scroll(Rect(x: 0, y: 1, width: 3, height: 3), by: 1)
        #expect(canvas.rowTexts == ["000", "222", "333", "   "])
        canvas.scroll(Rect(x: 0, y: 0, width: 3, height: 4), by: -2)
        #expect(canvas.rowTexts == ["   ", "   ", "000", "222"])
    }
}

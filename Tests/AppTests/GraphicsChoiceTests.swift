@testable import destinations
import TerminalFront
import Testing

/// `--graphics` and what the terminal answered → symbols or kitty, with the reason the
/// header gives.
@Suite struct GraphicsChoiceTests {
    func answers(kitty: Bool, sixel: Bool, registers: Int?, pixels: (width: Int, height: Int)? = nil, version: String? = nil) -> TerminalProbe.Answers {
        var answers = TerminalProbe.Answers()
        answers.kittyGraphics = kitty
        answers.version = version ?? (kitty ? "kitty(0.35.2)" : nil)
        answers.sixel = sixel
        answers.sixelColorRegisters = registers
        answers.textAreaPixels = pixels
        return answers
    }

    func choose(_ request: GraphicsRequest, kitty: Bool = true, sixel: Bool = false, registers: Int? = nil, capability: ColorCapability = .direct,
                tmux: Bool = false, headless: Bool = false, pixels: (width: Int, height: Int)? = nil, program: String? = nil,
                version: String? = nil) -> GraphicsChoice {
        GraphicsChoice.resolve(request, probed: answers(kitty: kitty, sixel: sixel, registers: registers, pixels: pixels, version: version), capability: capability,
                               size: (rows: 48, columns: 160), insideTmux: tmux, headless: headless, terminalProgram: program)
    }

    /// kitty 0.26 (Debian 12's), WezTerm and Konsole answer kitty's query but draw no Unicode
    /// placeholders (every thumbnail was a box of unknown glyphs): `auto` places the images
    /// directly there.
    @Test func placeholdersOnlyWhereTheTerminalDrawsThem() {
        #expect(GraphicsChoice.drawsUnicodePlaceholders(version: "kitty(0.28.0)"))
        #expect(GraphicsChoice.drawsUnicodePlaceholders(version: "kitty(0.35.2)"))
        #expect(GraphicsChoice.drawsUnicodePlaceholders(version: "ghostty 1.1.3"))
        #expect(!GraphicsChoice.drawsUnicodePlaceholders(version: "kitty(0.26.5)"))
        #expect(!GraphicsChoice.drawsUnicodePlaceholders(version: "WezTerm 20240203-110809-5046fc22"))
        #expect(!GraphicsChoice.drawsUnicodePlaceholders(version: nil))
        let old = choose(.auto, pixels: (width: 1440, height: 864), version: "kitty(0.26.5)")
        #expect(old.mode == .kittyPlacement && old.label == "kitty-placement" && old.cellPixels == (9, 18))
        guard case .kittyPlacement(let cell) = old.output else { Issue.record("direct placement expected"); return }
        #expect(cell == (9, 18))
        let wezterm = choose(.auto, sixel: true, pixels: (width: 960, height: 624), version: "WezTerm 20240203")
        #expect(wezterm.mode == .kittyPlacement, "kitty's protocol before sixel: an image is sent once, not every time a row is drawn")
        #expect(choose(.auto, version: "kitty(0.26.5)").label == "kitty-placement (cell size unknown)", "the terminal scales it: only blurred")
        #expect(choose(.kitty, version: "kitty(0.26.5)").mode == .kitty, "asked for by name: as asked")
    }

    /// `--graphics kitty-placement` forces direct placement, but not through tmux: a placement
    /// lands at the outer terminal's cursor, which tmux does not move with the pane's.
    @Test func directPlacementIsAskedForByNameAndNotThroughTmux() {
        #expect(choose(.kittyPlacement, kitty: false).mode == .kittyPlacement, "asked for: no answer needed")
        #expect(choose(.kittyPlacement, capability: .palette256).mode == .kittyPlacement, "no colour carries an id: 256 colours will do")
        #expect(choose(.kittyPlacement, tmux: true).label == "symbols 24-bit (kitty placements cannot pass through tmux)")
        #expect(GraphicsRequest(argument: "kitty-placement") == .kittyPlacement)
        #expect(choose(.kittyPlacement, headless: true).label == "kitty-placement")
    }

    @Test func autoTakesKittyWhenTheTerminalAnswersAndHasDirectColour() {
        #expect(choose(.auto).mode == .kitty && choose(.auto).label == "kitty")
        #expect(choose(.auto, kitty: false).mode == .symbols && choose(.auto, kitty: false).label == "symbols 24-bit")
        #expect(choose(.auto, kitty: false, capability: .palette256).label == "symbols")
        #expect(choose(.auto, capability: .palette256).label == "kitty-placement (no 24-bit colour for placeholders)")
        #expect(choose(.auto, tmux: true).mode == .symbols, "tmux answers for itself: not guessed")
        #expect(choose(.auto, headless: true).mode == .symbols)
    }

    @Test func askingForItWinsWhereItCan() {
        #expect(choose(.kitty, kitty: false).mode == .kitty, "asked for: no answer needed")
        let tmux = choose(.kitty, tmux: true)
        #expect(tmux.mode == .kitty && tmux.throughTmux && tmux.label == "kitty (through tmux)")
        #expect(choose(.kitty, capability: .palette256).label == "symbols (kitty needs 24-bit colour: COLORTERM=truecolor)")
        #expect(choose(.symbols).mode == .symbols)
    }

    @Test func autoTakesSixelFromDeviceAttributesWhenTheCellSizeIsKnown() {
        let xterm = choose(.auto, kitty: false, sixel: true, registers: 1024, capability: .palette256, pixels: (width: 960, height: 624))
        #expect(xterm.mode == .sixel && xterm.label == "sixel" && xterm.cellPixels == (6, 13))
        guard case .sixel(let cell, let colors) = xterm.output else { Issue.record("sixel output expected"); return }
        #expect(cell == (6, 13) && colors == 16, "at most 16 colours, chosen by median cut (D-077)")
        #expect(choose(.auto, kitty: false, sixel: true, registers: 8, pixels: (width: 960, height: 624)).sixelColors == 8, "a terminal with 8 registers")
        #expect(choose(.auto, kitty: false, sixel: true).label == "symbols 24-bit (sixel terminal that does not say its cell size)")
        #expect(choose(.auto, kitty: true, sixel: true, pixels: (width: 960, height: 624)).mode == .kitty, "kitty first")
        #expect(choose(.auto, kitty: false, sixel: true, tmux: true, pixels: (width: 960, height: 624)).mode == .symbols)
        #expect(choose(.sixel, kitty: false).label == "sixel (cell size unknown: guessed 10×20 pixels)")
        #expect(choose(.sixel, kitty: false, headless: true).label == "sixel")
    }

    @Test func iTerm2IsKnownByItsNameAndAskedForByFlag() {
        #expect(choose(.auto, kitty: false, program: "iTerm.app").mode == .iterm2)
        #expect(choose(.auto, kitty: true, program: "iTerm.app").mode == .kitty, "kitty's answer first")
        #expect(choose(.auto, kitty: false, sixel: true, pixels: (width: 960, height: 624), program: "iTerm2").mode == .iterm2)
        #expect(choose(.iterm2, kitty: false).label == "iterm2", "no cell size needed: the terminal scales each row")
        guard case .iterm2 = choose(.iterm2).output else { Issue.record("iTerm2 output expected"); return }
    }

    @Test func symbolsTakeTwentyFourBitColourWhereTheTerminalHasIt() {
        guard case .truecolorSymbols = choose(.symbols).output else { Issue.record("24-bit symbols expected"); return }
        guard case .symbols = choose(.symbols, capability: .palette256).output else { Issue.record("palette symbols expected"); return }
        #expect(choose(.symbols, capability: .none).label == "symbols")
    }

    @Test func theCellSizeComesFromTheTextAreaInPixels() {
        #expect(choose(.auto, pixels: (width: 1600, height: 960)).cellPixels == (10, 20))
        #expect(choose(.auto, pixels: (width: 1280, height: 1152)).cellPixels == (8, 24))
        #expect(choose(.auto).cellPixels == GraphicsChoice.usualCellPixels, "no answer: a usual 10×20 cell")
    }
}

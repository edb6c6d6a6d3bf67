@testable import destinations
import TerminalFront
import Testing

/// `--graphics` and what the terminal answered → symbols or kitty, with the reason the
/// header gives.
@Suite struct GraphicsChoiceTests {
    func answers(kitty: Bool, sixel: Bool, registers: Int?, pixels: (width: Int, height: Int)? = nil) -> TerminalProbe.Answers {
        var answers = TerminalProbe.Answers()
        answers.kittyGraphics = kitty
        answers.sixel = sixel
        answers.sixelColorRegisters = registers
        answers.textAreaPixels = pixels
        return answers
    }

    func choose(_ request: GraphicsRequest, kitty: Bool = true, sixel: Bool = false, registers: Int? = nil, capability: ColorCapability = .direct,
                tmux: Bool = false, headless: Bool = false, pixels: (width: Int, height: Int)? = nil, program: String? = nil) -> GraphicsChoice {
        GraphicsChoice.resolve(request, probed: answers(kitty: kitty, sixel: sixel, registers: registers, pixels: pixels), capability: capability,
                               size: (rows: 48, columns: 160), insideTmux: tmux, headless: headless, terminalProgram: program)
    }

    @Test func autoTakesKittyWhenTheTerminalAnswersAndHasDirectColour() {
        #expect(choose(.auto).mode == .kitty && choose(.auto).label == "kitty")
        #expect(choose(.auto, kitty: false).mode == .symbols && choose(.auto, kitty: false).label == "symbols 24-bit")
        #expect(choose(.auto, kitty: false, capability: .palette256).label == "symbols")
        #expect(choose(.auto, capability: .palette256).label == "symbols (kitty terminal without 24-bit colour)")
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
        #expect(cell == (6, 13) && colors == 128, "at most 128 colours")
        #expect(choose(.auto, kitty: false, sixel: true, registers: 16, pixels: (width: 960, height: 624)).sixelColors == 16, "a VT340's 16 registers")
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

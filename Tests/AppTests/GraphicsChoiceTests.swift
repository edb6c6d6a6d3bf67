@testable import destinations
import TerminalFront
import Testing

/// `--graphics` and what the terminal answered → symbols or kitty, with the reason the
/// header gives.
@Suite struct GraphicsChoiceTests {
    func answers(kitty: Bool, pixels: (width: Int, height: Int)? = nil) -> TerminalProbe.Answers {
        var answers = TerminalProbe.Answers()
        answers.kittyGraphics = kitty
        answers.textAreaPixels = pixels
        return answers
    }

    func choose(_ request: GraphicsRequest, kitty: Bool = true, capability: ColorCapability = .direct, tmux: Bool = false,
                headless: Bool = false, pixels: (width: Int, height: Int)? = nil) -> GraphicsChoice {
        GraphicsChoice.resolve(request, probed: answers(kitty: kitty, pixels: pixels), capability: capability,
                               size: (rows: 48, columns: 160), insideTmux: tmux, headless: headless)
    }

    @Test func autoTakesKittyWhenTheTerminalAnswersAndHasDirectColour() {
        #expect(choose(.auto).mode == .kitty && choose(.auto).label == "kitty")
        #expect(choose(.auto, kitty: false).mode == .symbols && choose(.auto, kitty: false).label == "symbols")
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

    @Test func theCellSizeComesFromTheTextAreaInPixels() {
        #expect(choose(.auto, pixels: (width: 1600, height: 960)).cellPixels == (10, 20))
        #expect(choose(.auto, pixels: (width: 1280, height: 1152)).cellPixels == (8, 24))
        #expect(choose(.auto).cellPixels == GraphicsChoice.usualCellPixels, "no answer: a usual 10×20 cell")
    }
}

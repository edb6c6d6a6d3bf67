import Testing
@testable import TerminalFront

@Suite struct TerminfoChoiceTests {
    /// The entries of a machine with ncurses-term installed.
    let installed: Set<String> = ["xterm-256color", "xterm-direct", "tmux-256color", "tmux-direct", "screen-256color",
                                  "kitty-direct", "xterm-kitty", "vte-direct", "linux", "alacritty", "alacritty-direct"]

    func entry(_ term: String, _ colorTerm: String?, tmux: Bool = false, noColor: Bool = false) -> String {
        TerminfoChoice.entry(term: term, colorTerm: colorTerm, insideTmux: tmux, noColor: noColor, exists: installed.contains)
    }

    @Test func colortermTruecolorPicksTheDirectVariant() {
        #expect(entry("xterm-256color", "truecolor") == "xterm-direct")
        #expect(entry("xterm-256color", "24bit") == "xterm-direct")
        #expect(entry("xterm-256color", "TrueColor") == "xterm-direct")
        #expect(entry("xterm-kitty", "truecolor") == "kitty-direct")
        #expect(entry("alacritty", "truecolor") == "alacritty-direct")
        #expect(entry("tmux-256color", "truecolor") == "tmux-direct")
        #expect(entry("gnome-256color", "truecolor") == "vte-direct")
    }

    @Test func screenIsDirectOnlyInsideTmux() {
        #expect(entry("screen-256color", "truecolor") == "screen-256color")
        #expect(entry("screen-256color", "truecolor", tmux: true) == "tmux-direct")
    }

    @Test func termIsKeptOtherwise() {
        #expect(entry("xterm-256color", nil) == "xterm-256color")
        #expect(entry("xterm-256color", "yes") == "xterm-256color")
        #expect(entry("xterm-256color", "truecolor", noColor: true) == "xterm-256color", "NO_COLOR wins")
        #expect(entry("xterm-direct", "truecolor") == "xterm-direct")
        #expect(entry("linux", "truecolor") == "linux", "no linux-direct: the console keeps its own entry")
    }
}

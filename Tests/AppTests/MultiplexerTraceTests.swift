import Foundation
import Testing

/// A run inside tmux leaves no trace (issue 24): tmux took the start-up probe's kitty query
/// (an APC string) for a pane title and kept it. After a run the pane title, the window
/// name and the alternate screen are as they were, whatever TERM says.
@Suite(.serialized) struct MultiplexerTraceTests {
    @Test(arguments: ["xterm-256color", "screen-256color", "tmux-256color"])
    func theProbeLeavesThePaneAsItWas(term: String) throws {
        let tmux = Tmux()
        try tmux.start("bash --norc --noprofile", term: term, environment: "PS1='PROMPT$ '")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("PROMPT$") }
        func pane(_ format: String) throws -> String {
            try tmux.run(["display-message", "-p", "-t", tmux.session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // A name of our own: tmux stops renaming the window after the running program (a
        // timer of its own), so only the app could change it.
        _ = try tmux.run(["rename-window", "-t", tmux.session, "before-the-app"])
        let title = try pane("#{pane_title}"), window = try pane("#{window_name}")
        #expect(window == "before-the-app")
        try tmux.keys("\(AppProcess.binary.path) --latency 0", "Enter")
        _ = try tmux.waitFor { $0.contains("♥") && $0.contains("prefetch on") }
        try tmux.keys("q")
        _ = try tmux.waitFor { $0.contains("destinations: ") && $0.hasSuffix("PROMPT$") || $0.contains("\nPROMPT$") }
        #expect(try pane("#{pane_title}") == title, "\(term): the pane title was \(title)")
        #expect(try pane("#{window_name}") == window, "\(term): the window's name was \(window)")
        #expect(try pane("#{alternate_on}") == "0")
    }
}

import Foundation
import Testing

/// A crash, a Swift trap or Ctrl-\ must leave the user's shell usable: off the alternate
/// screen, cursor shown, line editing and echo back, and one line saying what happened;
/// then the signal goes on (Swift's backtracer prints on the normal screen).
@Suite(.serialized) struct CrashRestoreTests {
    @Test(arguments: ["segv", "trap", "abrt", "fpe", "quit"])
    func theTerminalComesBackFromACrash(kind: String) throws {
        let tmux = Tmux()
        // The backtracer's interactive prompt would wait 30 s for a key; the test reads the
        // screen after it, so it is turned off here (a user gets it, on a normal screen).
        try tmux.start("\(AppProcess.binary.path) --refresh-rate 120; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' | tr '\\n' ' '; echo STTY",
                       environment: "DESTINATIONS_CRASH=\(kind) SWIFT_BACKTRACE=interactive=no")
        defer { tmux.stop() }
        let screen = try tmux.waitFor(timeout: 60) { $0.contains("STTY") }
        // The backtrace that follows scrolls the line away: read the scrollback too.
        let history = try tmux.run(["capture-pane", "-p", "-S", "-", "-t", tmux.session])
        #expect(history.contains("the terminal was restored"), "\(kind):\n\(history.suffix(3000))")
        #expect(screen.contains("icanon echo STTY"), "line editing and echo are back:\n\(screen)")
        let alternate = try tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(alternate == "0", "left the alternate screen")
        let cursor = try tmux.run(["display-message", "-p", "-t", tmux.session, "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cursor == "1", "the cursor is shown")
    }
}

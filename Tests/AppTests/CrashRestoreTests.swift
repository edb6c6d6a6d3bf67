import Foundation
import Testing

/// A crash, a Swift trap or Ctrl-\ must leave the user's shell usable: off the alternate
/// screen, cursor shown, line editing and echo back, and one line saying what happened;
/// then a crash's signal goes on (Swift's backtracer prints on the normal screen), and
/// Ctrl-\ ends the process (exit 131).
@Suite(.serialized) struct CrashRestoreTests {
    @Test(arguments: ["segv", "trap", "abrt", "fpe", "quit"], ["xterm-256color", "xterm-direct", "screen-256color", "linux"])
    func theTerminalComesBackFromACrash(kind: String, term: String) throws {
        let tmux = Tmux()
        // The backtracer's interactive prompt would wait 30 s for a key; the test reads the
        // screen after it, so it is turned off here (a user gets it, on a normal screen). Its
        // symbols are not read either: naming the frames of a debug build took 2 s a case
        // quiet, most of this suite's time in CI (`aQuitOrACrashNeverWaitsForAKey` keeps
        // the backtracer as a person has it).
        try tmux.start("\(AppProcess.binary.path) --refresh-rate 120; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' | tr '\\n' ' '; echo STTY",
                       term: term, environment: "DESTINATIONS_CRASH=\(kind) SWIFT_BACKTRACE=interactive=no,symbolicate=off")
        defer { tmux.stop() }
        let screen = try tmux.waitFor(timeout: 60) { $0.contains("STTY") }
        // The backtrace that follows scrolls the line away: read the scrollback too.
        let history = try tmux.run(["capture-pane", "-p", "-S", "-", "-t", tmux.session])
        #expect(history.contains("the terminal was restored"), "\(kind) \(term):\n\(history.suffix(3000))")
        #expect(screen.contains("icanon echo STTY"), "line editing and echo are back:\n\(screen)")
        let alternate = try tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(alternate == "0", "left the alternate screen")
        let cursor = try tmux.run(["display-message", "-p", "-t", tmux.session, "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cursor == "1", "the cursor is shown")
    }

    /// Ctrl-\\ is a person quitting: at once, one line, exit status 131 (SIGQUIT's), no
    /// backtrace and no backtracer prompt; and a crash, left to the backtracer as the person
    /// runs the app (no `SWIFT_BACKTRACE` set), prints its backtrace without waiting for a key.
    @Test(arguments: ["ctrl-backslash", "segv"])
    func aQuitOrACrashNeverWaitsForAKey(kind: String) throws {
        let tmux = Tmux()
        // From an interactive shell, as a person runs it: the terminal's Ctrl-\\ goes to the
        // whole foreground group, and only an interactive shell ignores it.
        try tmux.start("env -u SWIFT_BACKTRACE bash --norc --noprofile", environment: "PS1='PROMPT$ '")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("PROMPT$") }
        let crash = kind == "segv" ? "DESTINATIONS_CRASH=segv " : ""
        try tmux.keys("\(crash)\(AppProcess.binary.path) --latency 0; echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' | tr '\\n' ' '; echo ST\"\"TY", "Enter")
        if kind == "ctrl-backslash" {
            _ = try tmux.waitFor { $0.contains("♥") && $0.contains("prefetch on") }
            try tmux.keys("C-\\")
        }
        // The backtracer's prompt says "Press space": its text is the bug, whatever the
        // speed (a bound of 20 s, under the prompt's 30, failed on a busy machine).
        let screen = try tmux.waitFor(timeout: 120) { $0.contains("STTY") || $0.contains("Press space") }
        let history = try tmux.run(["capture-pane", "-p", "-S", "-", "-t", tmux.session])
        #expect(!history.contains("Press space"), "no backtracer prompt:\n\(history.suffix(2000))")
        #expect(screen.contains("icanon echo STTY"), "line editing and echo are back:\n\(screen)")
        if kind == "ctrl-backslash" {
            #expect(history.contains("EXIT=131"), "SIGQUIT's status:\n\(history.suffix(2000))")
            #expect(history.contains("destinations: quit (SIGQUIT); the terminal was restored"))
            #expect(!history.contains("Backtrace") && !history.contains("Thread 0"), "one line, no backtrace:\n\(history.suffix(2000))")
            #expect(!history.contains("♥"), "nothing of the grid left on the shell's screen:\n\(history.suffix(2000))")
        } else {
            #expect(history.contains("crashed (SIGSEGV"), "the line, then the backtrace:\n\(history.suffix(2000))")
            // The backtracer's own first line is enough: on a machine busy with the whole
            // suite it was once cut short after it (the full backtrace is the runtime's).
            #expect(history.contains("Thread 0") || history.contains("Backtrace") || history.contains("Program crashed: Signal 11"),
                    "the backtrace is kept for crashes:\n\(history.suffix(2000))")
        }
    }

    /// A fatal signal sent by `kill` (not raised by a fault) ends the process too: the
    /// terminal restored, the line and the backtrace printed, then the process gone with the
    /// signal's status, the shell back (issue 43: the backtracer returned, and the app went
    /// back to its frame loop for good).
    @Test(arguments: [("SEGV", 11), ("BUS", 7), ("ILL", 4), ("FPE", 8), ("TRAP", 5), ("ABRT", 6)])
    func aFatalSignalSentByKillEndsTheProcess(signal: String, number: Int) throws {
        let tmux = Tmux()
        let marker = "--seed \(UInt32.random(in: 1_000...9_999_999))"
        try tmux.start("env -u SWIFT_BACKTRACE \(AppProcess.binary.path) --latency 0 \(marker); echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' | tr '\\n' ' '; echo STTY")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("♥") && $0.contains("prefetch on") }
        _ = try Spawn.run(["pkill", "-\(signal)", "-f", "^\(AppProcess.binary.path) --latency 0 \(marker)$"])
        // The bound only ends a wait that would otherwise last for ever (the bug).
        let screen = try tmux.waitFor(timeout: 60) { $0.contains("STTY") }
        let history = try tmux.run(["capture-pane", "-p", "-S", "-", "-t", tmux.session])
        #expect(history.contains("the terminal was restored"), "\(signal):\n\(history.suffix(2000))")
        #expect(history.contains("EXIT=\(128 + number)"), "the signal's status:\n\(history.suffix(2000))")
        #expect(screen.contains("icanon echo STTY"), "line editing and echo are back:\n\(screen)")
        #expect(!history.contains("Press space"), "no backtracer prompt")
    }

    /// Every ordinary way out restores the terminal the same way: `q`, Ctrl-C, SIGTERM and
    /// SIGHUP (a terminal that goes away), in each kind of terminal.
    @Test(arguments: ["q", "ctrl-c", "sigterm", "sighup"], ["xterm-256color", "xterm-direct", "screen-256color", "linux"])
    func theTerminalComesBackOnEveryExit(exit: String, term: String) throws {
        let tmux = Tmux()
        let marker = "--seed \(UInt32.random(in: 1_000...9_999_999))"  // finds this run's process for kill
        try tmux.start("\(AppProcess.binary.path) --latency 0 \(marker); echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' | tr '\\n' ' '; echo STTY",
                       term: term)
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("♥") && $0.contains("prefetch on") }
        switch exit {
        case "q": try tmux.keys("q")
        case "ctrl-c": try tmux.keys("C-c")
        // The app's own command line only (anchored), not the shell that runs it.
        case "sigterm": _ = try Spawn.run(["pkill", "-TERM", "-f", "^\(AppProcess.binary.path) --latency 0 \(marker)$"])
        default: _ = try Spawn.run(["pkill", "-HUP", "-f", "^\(AppProcess.binary.path) --latency 0 \(marker)$"])
        }
        let screen = try tmux.waitFor(timeout: 30) { $0.contains("STTY") }
        let status = ["q": "EXIT=0", "ctrl-c": "EXIT=130", "sigterm": "EXIT=143", "sighup": "EXIT=129"][exit]!
        #expect(screen.contains(status), "\(exit) \(term): \(status) expected:\n\(screen)")
        #expect(screen.contains("icanon echo STTY"), "line editing and echo are back:\n\(screen)")
        let alternate = try tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(alternate == "0", "left the alternate screen")
        let cursor = try tmux.run(["display-message", "-p", "-t", tmux.session, "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cursor == "1", "the cursor is shown")
    }

    /// Ctrl-Z hands the terminal back to the shell; `fg` brings the grid back, redrawn.
    @Test func suspendAndResumeRedraw() throws {
        let tmux = Tmux()
        try tmux.start("bash --norc --noprofile", environment: "PS1='PROMPT$ '")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("PROMPT$") }
        try tmux.keys("\(AppProcess.binary.path) --latency 0", "Enter")
        _ = try tmux.waitFor { $0.contains("Young grass") && $0.contains("♥") }
        try tmux.keys("C-z")
        let suspended = try tmux.waitFor { $0.contains("Stopped") }
        #expect(suspended.contains("Stopped") && !suspended.contains("♥ "), "back at the shell:\n\(suspended)")
        try tmux.keys("fg", "Enter")
        let resumed = try tmux.waitFor { $0.contains("Young grass") && $0.contains("prefetch on") && $0.contains("♥") }
        #expect(resumed.contains("Young grass") && resumed.contains("prefetch on"), "redrawn after fg:\n\(resumed)")
        try tmux.keys("q")
        #expect(try tmux.waitFor { $0.contains("destinations: ") }.contains("destinations: "))
    }
}

import Foundation

/// Runs the built `destinations` binary (next to the test bundle in `.build/<config>/`).
enum AppProcess {
    static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("destinations").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("destinations")
    }

    /// The package's folder (scripts, assets).
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs with stdin, stdout and stderr not a terminal.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Spawn.Result {
        try Spawn.run([binary.path] + arguments, environment: environment)
    }
}

/// A tmux server of its own (`-L`), so tests never touch the user's sessions.
final class Tmux {
    let socket = "destinations-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let session = "app"
    /// Where the app keeps likes and places in this server's sessions: a folder of its own,
    /// so no test starts where another left off (a test that means to, reuses it).
    let stateHome: String

    /// `stateHome`: another server's, to start where its app left off.
    init(stateHome: String? = nil) {
        self.stateHome = stateHome ?? FileManager.default.temporaryDirectory.appendingPathComponent("destinations-state-\(UUID().uuidString.prefix(8))").path
    }

    /// Runs a tmux command and returns what it printed. Commands that start the server
    /// (`new-session`) must not capture: the server would inherit the pipe.
    @discardableResult
    func run(_ arguments: [String], capturing: Bool = true) throws -> String {
        try Spawn.run(["tmux", "-L", socket] + arguments, capture: capturing).stdout
    }

    /// Starts `command` in a new session. `swift test` exports NO_COLOR=1 to its children,
    /// so it is removed unless `environment` sets it again; COLORTERM too, so the colour a
    /// test sees follows `term` and `environment` only.
    func start(_ command: String, columns: Int = 120, rows: Int = 32, term: String = "xterm-256color", environment: String = "") throws {
        try run(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)",
                 "env -u NO_COLOR -u COLORTERM TERM=\(term) XDG_STATE_HOME=\(stateHome) \(environment) \(command); echo EXIT=$?; sleep 60"],
                capturing: false)
    }

    func keys(_ keys: String...) throws { try run(["send-keys", "-t", session] + keys) }

    /// The screen as text; with `escapes`, the colour escape sequences too.
    func capture(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-N", "-t", session] + (escapes ? ["-e"] : []))
    }

    /// Polls the screen until `predicate` holds or `timeout` passes; returns the last capture.
    /// The bound only ends a hang: it returns as soon as the screen matches, and an app built
    /// with ThreadSanitizer starting on a busy machine took more than 15 s (issue 47).
    func waitFor(timeout: Double = 120, escapes: Bool = false, _ predicate: (String) -> Bool) throws -> String {
        let end = Date().addingTimeInterval(timeout)
        var screen = ""
        repeat {
            screen = try capture(escapes: escapes)
            if predicate(screen) { return screen }
            usleep(100_000)
        } while Date() < end
        return screen
    }

    func panePID() throws -> Int32 {
        Int32(try run(["list-panes", "-t", session, "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The app's process: the child of the pane's shell.
    func appPID() throws -> Int32? {
        let shell = try panePID()
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.first
    }

    /// Ends the app (SIGKILL: a test that failed half-way must not leave it running) and
    /// the server. Call it with `defer` right after `start`.
    func stop() {
        if let app = try? appPID() { kill(app, SIGKILL) }
        _ = try? run(["kill-server"], capturing: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: stateHome) }
}

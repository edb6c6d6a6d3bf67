/// What the environment says, read once at launch (`LaunchEnvironment.read()`) and handed
/// to the grid as a value: nothing below the launch reads a variable, so a test sets what it
/// needs and a person's `TERM_PROGRAM=iTerm.app` cannot change what a simulation does.
struct LaunchEnvironment: Sendable {
    /// `$TMUX` is set: tmux is between the app and the terminal.
    var insideTmux = false
    /// What the terminal says it is: `TERM_PROGRAM`, else `LC_TERMINAL` (iTerm2 answers no
    /// query that names its image protocol).
    var terminalProgram: String?
    /// `DESTINATIONS_GRAPHICS=auto|kitty|kitty-placement|sixel|iterm2|symbols`, when set to one of those.
    var graphics: GraphicsRequest?
    /// A headless screen's size: `LINES` and `COLUMNS` when set (10 to 1,000), else 48×160.
    var headlessSize = (rows: 48, columns: 160)

    /// Nothing set: what tests start from.
    init() {}

    /// The process's environment, now.
    static func read() -> LaunchEnvironment {
        var environment = LaunchEnvironment()
        environment.insideTmux = Platform.environment("TMUX") != nil
        environment.terminalProgram = Platform.environment("TERM_PROGRAM") ?? Platform.environment("LC_TERMINAL")
        environment.graphics = Platform.environment("DESTINATIONS_GRAPHICS").flatMap(GraphicsRequest.init(rawValue:))
        func value(_ name: String, _ fallback: Int) -> Int {
            Platform.environment(name).flatMap { Int($0) }.map { min(max($0, 10), 1000) } ?? fallback
        }
        environment.headlessSize = (value("LINES", 48), value("COLUMNS", 160))
        return environment
    }
}

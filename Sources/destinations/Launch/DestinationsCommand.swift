import ArgumentParser
import RenderLoop

/// Prefetch mode flag values.
enum PrefetchMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on, off
}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

/// A failure the app reports in one line before exiting with `status`.
struct AppError: Error, CustomStringConvertible {
    let description: String
    var status: Int32 = 1
}

/// `destinations`: the grid by default; `destinations scheduler` shows the frame loop alone.
struct DestinationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "destinations",
        abstract: "A hitch-free scrolling grid of destination posts for the terminal.",
        version: Version.current,
        subcommands: [GridCommand.self, LoginCommand.self, LogoutCommand.self, SchedulerCommand.self, BenchCommand.self],
        defaultSubcommand: GridCommand.self
    )
    /// Parses and runs; returns the process exit status.
    static func main(arguments: [String]) -> Int32 {
        if RootHelp.isRequested(by: arguments) {
            print(RootHelp.text(), terminator: "")
            return 0
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as AppError {
            printError("destinations: \(error.description)")
            return error.status
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                return 0
            }
            printError(fullMessage(for: error))
            return code == .validationFailure ? 2 : code.rawValue
        }
    }
}

/// `destinations scheduler`: the frame scheduler alone, live or headless.
struct SchedulerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduler",
        abstract: "Watch the frame scheduler: hitches with and without idle-time cell preparation.",
        discussion: """
        A steady scroll brings a new cell every three frames, each costing --cell-cost to prepare, \
        at --refresh-rate. With prefetch on, cells are prepared in idle frame time and commits meet \
        their deadlines; with it off, every new cell lands in a commit. Without a terminal, pass \
        --duration for a headless run.
        """
    )

    /// `--refresh-rate`, `--prefetch`, `--report`, `--trace-file`: declared once, for every loop.
    @OptionGroup var frame: FrameFlags

    /// `--cell-cost` (12 ms here) and `--duration`: declared once, with the grid.
    @OptionGroup var runLength: RunFlags

    /// The cost of a cell when `--cell-cost` is not given: enough to show what it does.
    static let defaultCellCost = 12.0

    func run() throws {
        let options = RunOptions(command: self)
        if Platform.isInteractive {
            try LiveSchedulerView(options: options).run()
        } else if runLength.duration != nil {
            try HeadlessRun(options: options).run()
        } else {
            throw AppError(description: "standard output is not a terminal: run destinations scheduler in a terminal, or pass --duration SECONDS for a headless run", status: 2)
        }
    }

}

/// The flags, resolved once, handed to whichever loop runs.
struct RunOptions {
    let refreshRate: RefreshRate
    let prefetch: Bool
    let cellCost: Duration
    let duration: Duration?
    let report: ReportFormat
    let traceFile: String?

    init(command: SchedulerCommand) {
        refreshRate = command.frame.refreshRate
        prefetch = command.frame.prefetch == .on
        cellCost = .milliseconds(command.runLength.cellCost ?? SchedulerCommand.defaultCellCost)
        duration = command.runLength.duration.map { .milliseconds($0 * 1000) }
        report = command.frame.report
        traceFile = command.frame.traceFile
    }
}

/// Writes a line to standard error (fd 2) without touching C's `stderr` global.
func printError(_ text: String) {
    Platform.writeToStandardError(text + "\n")
}

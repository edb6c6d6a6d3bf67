import ArgumentParser
import RenderLoop

/// The flags every frame loop takes (the grid and the scheduler), declared once: the rate,
/// idle-time prefetch, the summary's format and the frame trace.
struct FrameFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Display refresh rate in Hz, 24 to 480 (e.g. 60, 120, 59.94; default 60): the commit deadline is one period.", valueName: "hz"),
            transform: { text in
                do { return try RefreshRate(parsing: text) } catch { throw ValidationError("\(error)") }
            })
    var refreshRate: RefreshRate = .hz60

    @Option(help: "Prepare upcoming cells in idle frame time.")
    var prefetch: PrefetchMode = .on

    @Option(help: "Summary printed at the end: text or json.")
    var report: ReportFormat = .text

    @Option(help: ArgumentHelp("Write the frames as Chrome trace-event JSON (opens in Perfetto).", valueName: "file"))
    var traceFile: String?
}

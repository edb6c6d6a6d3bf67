import CellCanvas
import RenderLoop
import TerminalFront

/// How the app ends after a terminal run (``TerminalRunLoop``): shared by the grid and the
/// scheduler view so that every exit path reports the same way.
enum TerminalLoop {
    /// Before the summary: a lost terminal prints nothing more.
    static func checkTerminal(_ stop: TerminalRunLoop.Stop) throws {
        if case .hungUp = stop { throw AppError(description: "the terminal went away", status: 128 + Platform.hangUpSignal) }
    }

    /// After the summary: a signal ends with 128 + its number.
    static func checkSignal(_ stop: TerminalRunLoop.Stop) throws {
        if case .signal(let number) = stop { throw AppError(description: "stopped by signal \(number)", status: 128 + number) }
    }
}

/// Commit times of the latest frames as bars, full height at two deadlines: green under
/// half a deadline, yellow above, red for a commit hitch, magenta where the terminal had
/// not taken the frame before (a terminal hitch).
enum CommitSparkline {
    static let levels = "▁▂▃▄▅▆▇█".map { String($0) }

    static func draw(_ meter: HitchMeter, width: Int, period: Duration, at origin: Point,
                     background: Color = .default, colors: (fast: Color, slow: Color, hitch: Color) = (.green, .yellow, .red),
                     into canvas: inout Canvas) {
        var offset = 0
        meter.forEachRecent(width) { record in
            defer { offset += 1 }
            let fraction = min(record.commitDuration / (period * 2), 1)
            let color: Color = record.isHitch ? colors.hitch : record.terminalBehind ? .magenta : (record.commitDuration > period / 2 ? colors.slow : colors.fast)
            let level = levels[min(Int(fraction * Double(levels.count)), levels.count - 1)]
            canvas.draw(level, at: Point(x: origin.x + offset, y: origin.y), style: CellStyle(foreground: color, background: background))
        }
    }
}

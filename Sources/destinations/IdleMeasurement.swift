import RenderLoop
#if canImport(Glibc)
import Glibc
#endif

/// What an app that is left alone costs: CPU time and bytes from the moment its first
/// screen is complete (every visible thumbnail in, nothing pending) to the end of the run.
struct IdleMeasurement {
    let startedAt: Duration
    let cpuAtStart: Duration
    let bytesAtStart: Int

    init(at time: Duration, bytesWritten: Int) {
        startedAt = time
        cpuAtStart = Self.processCPUTime()
        bytesAtStart = bytesWritten
    }

    /// CPU of the whole process (every thread) as a percentage of one core, and the bytes
    /// written, since the start.
    func result(at time: Duration, bytesWritten: Int) -> (seconds: Double, cpuPercent: Double, bytes: Int) {
        let elapsed = time - startedAt
        let cpu = Self.processCPUTime() - cpuAtStart
        let percent = elapsed > .zero ? 100 * (cpu / elapsed) : 0
        return (elapsed.milliseconds / 1000, percent, bytesWritten - bytesAtStart)
    }

    /// User and system time of every thread of the process.
    static func processCPUTime() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}

extension GridApp {
    /// `--scenario idle`: starts measuring once the first screen is complete.
    func noteIdleScenario() {
        guard scenario?.kind == .idle, idleMeasurement == nil, stats.frames > 0 else { return }
        let complete = view.visibleCellCount > 0 && !view.visibleCells.contains { ($0 as? PostCell)?.isPlaceholder ?? false }
        guard complete, store.pendingCount == 0, !view.physics.isMoving else { return }
        idleMeasurement = IdleMeasurement(at: clock.now, bytesWritten: terminal.bytesWritten)
    }
}

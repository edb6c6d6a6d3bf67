/// What an app that is left alone costs: CPU time and bytes from the moment its first
/// screen is complete (every visible thumbnail in, nothing pending) to the end of the run.
struct IdleMeasurement {
    let startedAt: Duration
    let cpuAtStart: Duration
    let bytesAtStart: Int

    init(at time: Duration, bytesWritten: Int) {
        startedAt = time
        cpuAtStart = Platform.processCPUTime()
        bytesAtStart = bytesWritten
    }

    /// CPU of the whole process (every thread) as a percentage of one core, and the bytes
    /// written, since the start.
    func result(at time: Duration, bytesWritten: Int) -> (seconds: Double, cpuPercent: Double, bytes: Int) {
        let elapsed = time - startedAt
        let cpu = Platform.processCPUTime() - cpuAtStart
        let percent = elapsed > .zero ? 100 * (cpu / elapsed) : 0
        return (elapsed.milliseconds / 1000, percent, bytesWritten - bytesAtStart)
    }
}

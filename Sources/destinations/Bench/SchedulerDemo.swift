import TerminalFront
import RenderLoop

/// The scheduler and the seeds' steady-scroll workload on the real clock, shared by the
/// live view and the headless run.
final class SchedulerDemo {
    let clock = MonotonicClock(strategy: .recommended)
    let scheduler: FrameScheduler
    private(set) var workload: SteadyScrollWorkload
    let startedAt: Duration

    init(options: RunOptions) {
        startedAt = clock.now
        scheduler = FrameScheduler(refreshRate: options.refreshRate, clock: clock)
        workload = Self.workload(from: scheduler, cellCost: options.cellCost)
        scheduler.isIdleWorkEnabled = options.prefetch
        scheduler.idleWork = workload
    }

    /// A fresh scroll from the next tick (after a rate change the old tick count is meaningless).
    func restartWorkload(cellCost: Duration) {
        workload = Self.workload(from: scheduler, cellCost: cellCost)
        scheduler.idleWork = workload
    }

    /// A steady scroll starting at `scheduler`'s next tick whose work burns real CPU.
    private static func workload(from scheduler: FrameScheduler, cellCost: Duration) -> SteadyScrollWorkload {
        let clock = scheduler.clock
        return SteadyScrollWorkload(startingAt: scheduler.nextTick, cellCost: cellCost, spend: { clock.spin(for: $0) })
    }

    func summary(options: RunOptions) -> RunSummary {
        RunSummary(options: options, refreshRate: scheduler.refreshRate, prefetch: scheduler.isIdleWorkEnabled,
                   report: scheduler.meter.report(), workload: workload, elapsed: clock.now - startedAt)
    }
}

/// No terminal: run for `--duration`, then print the report.
struct HeadlessRun {
    let options: RunOptions

    final class Frames: FrameDelegate {
        let demo: SchedulerDemo
        init(demo: SchedulerDemo) { self.demo = demo }
        func commit(_ frame: FrameInfo) { demo.workload.commit(frame) }
    }

    func run() throws {
        let demo = SchedulerDemo(options: options)
        let signals = TerminationSignals()
        let end = demo.clock.now + (options.duration ?? .seconds(5))
        let frames = Frames(demo: demo)
        demo.scheduler.run(frames) { demo.clock.now < end && signals.signal == nil }
        try demo.summary(options: options).printAndTrace(records: demo.scheduler.meter.records)
        if let signal = signals.signal { throw AppError(description: "stopped by signal \(signal)", status: 128 + signal) }
    }
}

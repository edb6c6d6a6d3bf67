import CoreKit
import RenderLoop

/// Demand-driven frames (the scheduler's step 7): when nothing would change, the grid does
/// not draw, diff or write; it sleeps until a key, a worker's result, a signal or its next
/// timer (the HUD's refresh at 4 Hz, a scripted key, the end of the run).
extension GridLoop {
    /// How often the HUD's figures refresh while nothing else moves.
    static let quietHUDInterval = Duration.milliseconds(250)

    /// Quiet until the next timer when nothing would change (``isQuiet``).
    var demand: FrameDemand { isQuiet ? .quiet(until: nextScheduledWork) : .frame }

    var isQuiet: Bool {
        if flags.somethingHappened { return false }
        if view.hasWorkForNextFrame || sources.photoScan?.updates.mayHaveMessages == true { return false }
        if terminal.hasDeferredPixels || terminal.isOutputBehind { return false }
        if scheduler.isIdleWorkEnabled && view.hasIdleWork { return false }
        if let due = nextScheduledWork, clock.now >= due { return false }
        return true
    }

    var nextScheduledWork: Duration? {
        var due: [Duration] = []
        let last = measure.lastFrameTick
        if model.showsHUD, let last { due.append(last + Self.quietHUDInterval) }
        // A photo on its way to the detail view over a feed: its progress moves at the HUD's pace.
        if sources.feed != nil, let detail = view.detail, detail.isPlaceholder, detail.failure == nil, let last {
            due.append(last + Self.quietHUDInterval)
        }
        // A page awaited: the header's countdown or wait moves each second. Counted from the
        // last frame, as the HUD's refresh is: from now, a change just due would never be.
        if let feed = sources.feed, let last, let next = feed.nextStatusChange(after: last) { due.append(next) }
        if let driver = sources.scenario, let next = driver.nextKeyTime { due.append(measure.startedAt + next) }
        if let end = runEnd { due.append(end) }
        if let next = view.nextDueTime { due.append(next) }
        return due.min()
    }

    func waitForWork(until deadline: Duration?) {
        // Nothing moves: memory freed with big snapshots goes back now, not mid-fling (D-056),
        // and so does what the image workers freed since they last delivered.
        view.returnFreedMemory()
        let woken = terminal.waitForInput(wake: wake, timeout: deadline.map { $0 - clock.now })
        if woken {
            flags.somethingHappened = true  // draw the next tick: a key, a result or a signal is waiting
        } else if let deadline {
            clock.sleep(until: deadline)  // a virtual clock jumps; a real one has (almost) arrived
        }
    }
}

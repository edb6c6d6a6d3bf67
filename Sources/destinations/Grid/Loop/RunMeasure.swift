import RenderLoop

/// What a run measures beyond the scheduler's meter: the per-frame statistics, the idle
/// scenario's reading, filter latencies, relayouts, and how long rests take to settle. The
/// loop feeds it facts; it never reads the view or the terminal itself.
struct RunMeasure {
    var stats: RunStats
    let startedAt: Duration
    /// `--scenario idle`: from when the first screen was complete, CPU time and bytes.
    var idleMeasurement: IdleMeasurement?
    /// Bytes of one row in a full repaint of the final screen, measured at the end.
    var fullPaintBytesPerRow = 0.0
    /// Layouts done since the start.
    var relayouts = 0
    /// When each filter key whose result is not on screen yet was read.
    var filterKeysWaiting: [Duration] = []
    /// The tick of the last frame drawn (the HUD's quiet refresh counts from it).
    var lastFrameTick: Duration?
    /// The rest under way, if the grid came to rest and the screen is not yet whole.
    private var rest = RestWatch()

    init(duration: Duration?, startedAt: Duration) {
        stats = RunStats(duration: duration)
        self.startedAt = startedAt
    }

    /// A filter key's result is on screen: its latency is counted.
    mutating func filterShown(at time: Duration) {
        for typed in filterKeysWaiting { stats.filterLatencies.append((time - typed).milliseconds) }
        filterKeysWaiting.removeAll()
    }

    /// From the frame the grid comes to rest to the first tick at which the terminal has
    /// taken a frame that shows every visible thumbnail whole (no placeholder, no row of
    /// pixels held back): what a person waits for after a scroll. A rest cut short by more
    /// motion is counted apart. Called after each frame is presented; the terminal's part
    /// is judged at the next tick (``noteSettled(at:outputBehind:)``), since the frame just
    /// queued is always still on its way (with the HUD on, every frame sends bytes:
    /// measured at present time, a rest in xterm never settled).
    mutating func noteSettling(at time: Duration, moving: Bool, placeholders: Int, pixelsHeldBack: Bool) {
        defer { rest.wasMoving = moving }
        if rest.wasMoving && !moving { (rest.startedAt, rest.waitingOn) = (time, .placeholders) }
        guard rest.startedAt != nil else { return }
        if moving {
            rest.startedAt = nil
            stats.interruptedRests += 1
            stats.interruptedRestsWaiting[rest.waitingOn, default: 0] += 1
        } else {
            // What the rest still waits for, in the order a person sees it.
            rest.waitingOn = placeholders > 0 ? .placeholders : pixelsHeldBack ? .pixels : .terminal
        }
    }

    /// At a tick, before anything of the new frame: a rest whose last frame showed every
    /// thumbnail is settled once the terminal has taken everything sent.
    mutating func noteSettled(at time: Duration, outputBehind: @autoclosure () -> Bool) {
        guard let start = rest.startedAt, rest.waitingOn == .terminal, !outputBehind() else { return }
        stats.settleTimes.append((time - start).milliseconds)
        rest.startedAt = nil
    }

    /// The grid moved in the last frame; when it came to rest, and what it still waits for.
    private struct RestWatch {
        var wasMoving = false
        var startedAt: Duration?
        var waitingOn = RestWait.placeholders
    }
}

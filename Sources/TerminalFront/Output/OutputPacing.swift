/// How fast this terminal takes bytes, measured, and what a frame may add on top of its
/// text (sixel or iTerm2 strips, kitty transmissions): the budget follows the terminal, not
/// a constant (issue 23).
///
/// A rate is known only while the terminal is the bottleneck: while bytes wait at every
/// tick, what it took is what it can take (`observe(at:bytesTaken:behind:)`). The kernel
/// takes bytes in bursts (a tick may see 4 KB taken, the next none), so a sample spans at
/// least ``window`` of such ticks, or a whole shorter run of them. Budgets use a moving
/// estimate of those samples with a margin; when frames keep up while optional bytes were left for want of budget, the
/// estimate grows a little each frame (the terminal may be faster than it was), so a
/// terminal that was slow during a burst of pixels is not held to it forever. Before the
/// first sample the budget is the caller's ceiling.
///
/// A terminal that misses single ticks (xterm drawing sixel: a frame of pixels is taken a
/// little after the next tick, the one after on time) never stays behind long enough to be
/// measured, so each miss also cuts the optional rate in half and remembers where it
/// missed; frames that keep up while they hold bytes back climb back quickly to 60 % of that
/// level, then probe above it slowly (0.05 % a frame, 6 % a second at 120 Hz). Measured in
/// xterm with sixel: a recovery to 85 % ratcheted down only 15 % a miss, and took five misses
/// a run to find xterm's rate; at 60 % it takes one or two. Like TCP, it starts slow: a
/// sixth of the ceiling, growing 5 % a frame that keeps up with bytes held back (the
/// ceiling within a third of a second at 120 Hz), so the first miss is a small overshoot of
/// what the terminal takes rather than one at the ceiling. Pure bookkeeping: both backends use it, the test
/// backend on a simulated link in virtual time.
public struct OutputPacing: Sendable {
    /// Samples kept for the report's median (the minimum is kept over the whole run).
    public static let sampleLimit = 4096
    /// Budgets plan for this fraction of the estimate: the kernel's pty buffer hides how
    /// much is in flight, and a frame that overshoots is a terminal hitch.
    public static let margin = 0.8
    /// Growth of the estimate per frame that kept up while it had more to send.
    public static let probeGrowth = 1.04
    /// The time a sample spans, at least (a shorter run of ticks behind counts when it
    /// spans ``shortestSample``).
    public static let window = Duration.milliseconds(100)
    /// A sample shorter than this is not a rate (too few bytes to time).
    public static let shortestSample = Duration.milliseconds(20)

    private var samples: [Double] = []
    private var nextSample = 0
    /// Every sample so far.
    public private(set) var sampleCount = 0
    /// The slowest interval measured, in bytes per second.
    public private(set) var minimumRate: Double?
    /// The median of the kept samples, in bytes per second: found when a sample is kept (at
    /// most every ``shortestSample``, and only while the terminal is behind), not each time
    /// it is read (the HUD reads the output's figures every frame).
    public private(set) var medianRate: Double?
    /// The rate budgets are planned from, in bytes per second; nil before the first sample.
    public private(set) var estimate: Double?
    private var last: (time: Duration, taken: Int, behind: Bool)?
    /// The optional rate a frame may use after misses, bytes a second (nil: no miss yet),
    /// and the rate at which the terminal last missed a tick.
    public private(set) var allowance: Double?
    private var missedAt: Double?
    /// What a miss leaves of the allowance; growth back towards ``recoveryLevel`` of the
    /// missed level, and beyond it.
    public static let cut = 0.5, recovery = 1.05, probe = 1.0005, recoveryLevel = 0.6
    /// The least allowance, as a fraction of the measured estimate.
    public static let floor = 1.0 / 16
    /// The first rate, as a fraction of the ceiling.
    public static let slowStart = 1.0 / 6
    /// Where the current run of ticks behind began to be measured.
    private var runStart: (time: Duration, taken: Int)?

    /// Pacing with nothing measured yet: it starts slow and learns the terminal's rate.
    public init() {}

    /// At a tick: the terminal's running total of bytes taken, and whether bytes are still
    /// waiting. An interval that had bytes waiting at both ends is a sample of its rate.
    /// A terminal that took everything while optional bytes were held back (`moreToSend`,
    /// or ``noteHeldBack()`` since the last tick) may take more: the allowance grows.
    public mutating func observe(at time: Duration, bytesTaken: Int, behind: Bool, ceiling: Int = .max, moreToSend: Bool = false) {
        defer {
            last = (time, bytesTaken, behind)
            if !behind && (moreToSend || heldBack) { noteKeptUpWithMoreToSend() }
            heldBack = false
        }
        guard let last, time > last.time else { return }
        if behind && !last.behind {
            // Never below a fraction of what the terminal was measured to take: misses in a
            // row (a fling over a slow link) halved it to nothing, and it never grew back.
            let least = (estimate ?? 0) * Self.floor
            let missed = max(rate(ceiling: ceiling), least)
            missedAt = missed
            allowance = max(missed * Self.cut, least)
        }
        if last.behind && behind {
            let start = runStart ?? (last.time, last.taken)
            runStart = start
            if time - start.time >= Self.window {
                record(bytes: bytesTaken - start.taken, over: time - start.time)
                runStart = (time, bytesTaken)
            }
        } else {
            // The run ended (or never began): what it measured since its last sample.
            if let start = runStart, last.time - start.time >= Self.shortestSample {
                record(bytes: last.taken - start.taken, over: last.time - start.time)
            }
            runStart = nil
        }
    }

    private mutating func record(bytes: Int, over interval: Duration) {
        let rate = Double(bytes) / (interval.milliseconds / 1000)
        guard rate > 0 else { return }
        if samples.count < Self.sampleLimit {
            samples.append(rate)
        } else {
            samples[nextSample] = rate
            nextSample = (nextSample + 1) % Self.sampleLimit
        }
        sampleCount += 1
        minimumRate = min(minimumRate ?? rate, rate)
        let sorted = samples.sorted()
        medianRate = sorted[(sorted.count - 1) / 2]
        estimate = estimate.map { 0.7 * $0 + 0.3 * rate } ?? rate
    }

    /// Optional bytes of the app's own (image transmissions) were held back for want of
    /// budget this frame; counted at the next ``observe(at:bytesTaken:behind:ceiling:moreToSend:)``.
    public mutating func noteHeldBack() { heldBack = true }
    private var heldBack = false

    /// A frame kept up (nothing waiting) though optional bytes were held back: the terminal
    /// may take more than estimated.
    public mutating func noteKeptUpWithMoreToSend() {
        if let value = estimate { estimate = value * Self.probeGrowth }
        if let value = allowance, let missed = missedAt {
            allowance = value * (value < Self.recoveryLevel * missed ? Self.recovery : Self.probe)
        } else {
            startingRate *= Self.recovery
        }
    }

    /// The optional rate in bytes a second: the ceiling, the measured estimate with its
    /// margin, and the allowance after misses, whichever is least.
    public func rate(ceiling: Int) -> Double {
        let beforeAnyMiss = ceiling == .max ? Double.infinity : Double(ceiling) * Self.slowStart * startingRate
        return min(Double(ceiling), (estimate ?? .infinity) * Self.margin, allowance ?? beforeAnyMiss)
    }

    /// Slow start's growth so far (before the first miss).
    private var startingRate = 1.0

    /// Optional bytes the next frame may send at `hertz`: its share of ``rate(ceiling:)``,
    /// less what is still waiting; at least 1 when nothing is (a budget of 1 lets the first
    /// item go: whatever the allowance, a terminal that took everything gets something).
    public func optionalBytesPerFrame(hertz: Double, ceiling: Int, pending: Int) -> Int {
        max(pending == 0 ? 1 : 0, Int(rate(ceiling: ceiling) / hertz) - pending)
    }

}

/// The scroll hint of frames the terminal was too slow for, merged: coalesced frames keep
/// their scrolls, so the frame finally sent moves the rows by their sum and sends only the
/// rows exposed in all (a wrong hint costs bytes, never correctness).
public struct CoalescedScroll: Sendable {
    private var rows: Range<Int>?
    private var by = 0
    private var unknown = false

    /// No scroll yet.
    public init() {}

    /// Adds the hint of a frame that was not sent.
    public mutating func add(_ scrolled: (rows: Range<Int>, by: Int)?) {
        guard let scrolled, scrolled.by != 0, !unknown else { return }
        if let rows, rows != scrolled.rows {
            unknown = true
            return
        }
        rows = scrolled.rows
        by += scrolled.by
    }

    /// The hint for a frame sent now, with this frame's own `scrolled`; empties the record.
    public mutating func take(with scrolled: (rows: Range<Int>, by: Int)?) -> (rows: Range<Int>, by: Int)? {
        add(scrolled)
        defer { self = CoalescedScroll() }
        guard !unknown, let rows, by != 0 else { return nil }
        return (rows, by)
    }
}

import CoreKit

/// Apple's bands for the hitch time ratio (ms of hitch per second of scrolling).
public enum HitchBand: String, Sendable, Hashable, CaseIterable {
    /// Under 5 ms/s: hitches are rare enough that people do not notice.
    case good
    /// 5 to 10 ms/s: noticeable; worth investigating.
    case warning
    /// Over 10 ms/s: scrolling feels broken.
    case critical

    /// The band of a hitch ratio: under 5 good, 5 to 10 warning, over 10 critical.
    public init(ratioMillisecondsPerSecond ratio: Double) {
        self = ratio < 5 ? .good : (ratio <= 10 ? .warning : .critical)
    }
}

/// Keeps the frames' records and answers with the aggregates a hitch report needs, in
/// memory and per-frame time that do not grow with the length of the run.
///
/// - The first ``retainedRecordLimit`` records are kept whole (for traces).
/// - The last ``recentLimit`` records are kept in a ring (the HUD's sparkline, the last
///   second's percentiles), so a long session never freezes its live figures.
/// - Counters cover every frame; commit percentiles are exact while the run has at most
///   ``exactCommitLimit`` frames and come from a bounded histogram (within 0.2 %) after.
public struct HitchMeter: Sendable {
    /// About five minutes at 120 Hz.
    public static let defaultRetainedRecordLimit = 36_000
    /// Frames the recent ring keeps (the HUD's sparkline and last-second percentiles).
    public static let recentLimit = 1024
    /// Commits whose exact durations are kept for percentiles; past that, a histogram.
    public static let exactCommitLimit = 100_000

    /// The first ``retainedRecordLimit`` frames' whole records (for a trace).
    public var records: [FrameRecord] { kept.retained }
    /// How many whole records ``records`` keeps.
    public let retainedRecordLimit: Int
    /// Frames recorded.
    public var frames: Int { totals.frames }
    /// Hitches of both kinds: late commits, and runs of ticks the terminal was behind.
    public var hitches: Int { commitHitches + terminalHitches }
    /// Commits that ended after their deadline.
    public var commitHitches: Int { totals.commitHitches }
    /// Of those, the ones whose own work would have fit: their thread waited for a core
    /// (``FrameRecord/isHitchFromWaiting``).
    public var commitHitchesFromWaiting: Int { totals.commitHitchesFromWaiting }
    /// Runs of consecutive frames at whose tick the terminal had not taken the frame before.
    public var terminalHitches: Int { totals.terminalHitches }
    /// Frames at whose tick the terminal was behind (each a period of terminal hitch time).
    public var terminalBehindFrames: Int { totals.terminalBehindFrames }
    /// How late the late commits were, added up (each from its deadline to its vsync).
    public var commitHitchTime: Duration { totals.commitHitchTime }
    /// A period for every tick at which the terminal was behind.
    public var terminalHitchTime: Duration { totals.terminalHitchTime }
    /// Hitch time of both kinds.
    public var totalHitchTime: Duration { commitHitchTime + terminalHitchTime }
    private var lastWasBehind = false
    /// Ticks passed over because a commit ended late.
    public var skippedTicks: Int { totals.skippedTicks }
    /// Idle jobs run.
    public var idleJobs: Int { totals.idleJobs }
    /// Time the idle jobs took.
    public var idleWorkTime: Duration { totals.idleWorkTime }
    /// The first frame's tick.
    public private(set) var firstTick: Duration?
    /// The vsync that showed the last frame.
    public private(set) var lastPresented: Duration?
    /// Time the loop spent quiet (no frame needed): not part of the span the ratio divides by.
    public var quietTime: Duration { totals.quietTime }
    private var kept = KeptRecords()
    private var totals = RunningTotals()
    private var exactCommits: [Int64] = []
    private var histogram = CommitHistogram()

    /// The records kept whole: the first ones for a trace, and a ring of the last ones for
    /// live figures; both bounded, so a long session's memory does not grow.
    private struct KeptRecords: Sendable {
        var retained: [FrameRecord] = []
        var recent: [FrameRecord] = []
        /// Where the oldest record of the full ring is (its next overwrite).
        var recentStart = 0
    }

    /// Counters over every frame recorded, behind the public figures and ``report()``.
    private struct RunningTotals: Sendable {
        var frames = 0
        var commitHitches = 0
        var commitHitchesFromWaiting = 0
        var terminalHitches = 0
        var terminalBehindFrames = 0
        var commitHitchTime: Duration = .zero
        var terminalHitchTime: Duration = .zero
        var skippedTicks = 0
        var idleJobs = 0
        var idleWorkTime: Duration = .zero
        var quietTime: Duration = .zero
    }

    /// A meter that keeps the whole records of the first `retainedRecordLimit` frames.
    public init(retainedRecordLimit: Int = HitchMeter.defaultRetainedRecordLimit) {
        self.retainedRecordLimit = retainedRecordLimit
    }

    /// - Complexity: O(1) amortised, whatever the length of the run.
    public mutating func record(_ frame: FrameRecord) {
        if kept.retained.count < retainedRecordLimit { kept.retained.append(frame) }
        if kept.recent.count < Self.recentLimit {
            kept.recent.append(frame)
        } else {
            kept.recent[kept.recentStart] = frame
            kept.recentStart = (kept.recentStart + 1) % Self.recentLimit
        }
        totals.frames += 1
        if frame.isHitch {
            totals.commitHitches += 1
            if frame.isHitchFromWaiting { totals.commitHitchesFromWaiting += 1 }
            totals.commitHitchTime += frame.hitchTime
        }
        if frame.terminalBehind {
            totals.terminalBehindFrames += 1
            totals.terminalHitchTime += frame.period
            if !lastWasBehind { totals.terminalHitches += 1 }
        }
        lastWasBehind = frame.terminalBehind
        totals.skippedTicks += frame.skippedTicks
        totals.idleJobs += frame.jobsRun
        totals.idleWorkTime += frame.idleWorkTime
        if firstTick == nil { firstTick = frame.tick }
        lastPresented = frame.presentedAt
        let commit = frame.commitDuration.nanoseconds
        if exactCommits.count < Self.exactCommitLimit { exactCommits.append(commit) }
        histogram.record(commit)
    }

    /// Calls `body` with the last `count` frames (at most ``recentLimit``), oldest first,
    /// straight from the ring (no copy).
    public func forEachRecent(_ count: Int, _ body: (FrameRecord) -> Void) {
        let available = min(count, kept.recent.count)
        let newestEnd = kept.recent.count < Self.recentLimit ? kept.recent.count : kept.recentStart + kept.recent.count
        for position in (newestEnd - available)..<newestEnd { body(kept.recent[position % kept.recent.count]) }
    }

    /// The last `count` frames (at most ``recentLimit``), oldest first.
    public func recentRecords(_ count: Int) -> [FrameRecord] {
        var result: [FrameRecord] = []
        result.reserveCapacity(min(count, kept.recent.count))
        forEachRecent(count) { result.append($0) }
        return result
    }

    /// Notes a quiet gap (no frames, nothing on screen changing) between two frames.
    public mutating func recordQuiet(_ gap: Duration) {
        if totals.frames > 0 { totals.quietTime += gap }
    }

    /// From the first frame's tick to the vsync that showed the last one, quiet gaps left out.
    public var activeSpan: Duration { (lastPresented ?? .zero) - (firstTick ?? .zero) - quietTime }

    /// Hitch time per second so far, as ``HitchReport/hitchRatio``, without the sort a full
    /// report needs: a live display calls this every frame, and sorting every commit of a long
    /// session each frame would itself cost frames.
    public var hitchRatio: Double {
        let span = activeSpan
        return span > .zero ? totalHitchTime.milliseconds / (span.milliseconds / 1000) : 0
    }

    /// Apple's band for ``hitchRatio``.
    public var band: HitchBand { HitchBand(ratioMillisecondsPerSecond: hitchRatio) }

    /// The `p` quantile (nearest rank) of the last `count` commits (at most
    /// ``recentLimit``), for live displays.
    /// - Complexity: O(count log count), independent of the run's length.
    public func recentCommitPercentile(_ p: Double, last count: Int) -> Duration {
        var window: [Int64] = []
        window.reserveCapacity(min(count, kept.recent.count))
        forEachRecent(count) { window.append($0.commitDuration.nanoseconds) }
        window.sort()
        guard !window.isEmpty else { return .zero }
        let rank = Int((p * Double(window.count)).rounded(.up))
        return .nanoseconds(window[min(max(rank, 1), window.count) - 1])
    }

    /// The summary of everything recorded so far.
    /// - Complexity: O(n log n) while n ≤ ``exactCommitLimit`` (a sort), then O(buckets).
    public func report() -> HitchReport {
        let percentile: (Double) -> Duration
        let maximum: Duration
        if frames <= Self.exactCommitLimit {
            let sorted = exactCommits.sorted()
            percentile = { p in
                guard !sorted.isEmpty else { return .zero }
                let rank = Int((p * Double(sorted.count)).rounded(.up))
                return .nanoseconds(sorted[min(max(rank, 1), sorted.count) - 1])
            }
            maximum = .nanoseconds(sorted.last ?? 0)
        } else {
            percentile = { [histogram] p in .nanoseconds(histogram.percentile(p)) }
            maximum = .nanoseconds(histogram.maximum)
        }
        return HitchReport(
            frames: frames, commitHitches: commitHitches, commitHitchesFromWaiting: commitHitchesFromWaiting, terminalHitches: terminalHitches,
            commitHitchTime: commitHitchTime, terminalHitchTime: terminalHitchTime,
            terminalBehindFrames: terminalBehindFrames, duration: activeSpan,
            skippedTicks: skippedTicks, idleJobs: idleJobs, idleWorkTime: idleWorkTime,
            commitP50: percentile(0.50), commitP95: percentile(0.95),
            commitP99: percentile(0.99), commitMax: maximum
        )
    }
}

/// Aggregates of a run: what `--report` prints and the HUD shows.
public struct HitchReport: Sendable, Hashable {
    /// Frames in the run.
    public let frames: Int
    /// Frames whose commit ended after their deadline.
    public let commitHitches: Int
    /// Of those, the ones whose own work would have fit: the thread waited for a core
    /// (``FrameRecord/isHitchFromWaiting``).
    public let commitHitchesFromWaiting: Int
    /// Runs of frames at whose tick the terminal had not taken the frame before.
    public let terminalHitches: Int
    /// How late the late commits were, added up.
    public let commitHitchTime: Duration
    /// A period for every tick at which the terminal was behind.
    public let terminalHitchTime: Duration
    /// Ticks at which the terminal was behind.
    public let terminalBehindFrames: Int
    /// Hitches of both kinds (D-039 says how they are counted).
    public var hitches: Int { commitHitches + terminalHitches }
    /// Hitch time of both kinds.
    public var totalHitchTime: Duration { commitHitchTime + terminalHitchTime }
    /// From the first frame's tick to the vsync that showed the last frame, less quiet gaps.
    public let duration: Duration
    /// Ticks passed over because a commit ended late.
    public let skippedTicks: Int
    /// Idle jobs run.
    public let idleJobs: Int
    /// Time the idle jobs took.
    public let idleWorkTime: Duration
    /// Commit durations by nearest rank (p50 of 1…100 ms is 50 ms).
    public let commitP50: Duration
    /// The 95th percentile of commit durations.
    public let commitP95: Duration
    /// The 99th percentile of commit durations.
    public let commitP99: Duration
    /// The longest commit.
    public let commitMax: Duration

    /// Milliseconds of hitch per second of run: Apple's headline metric.
    public var hitchRatio: Double {
        duration > .zero ? totalHitchTime.milliseconds / (duration.milliseconds / 1000) : 0
    }

    /// Apple's band for ``hitchRatio``.
    public var band: HitchBand { HitchBand(ratioMillisecondsPerSecond: hitchRatio) }
}

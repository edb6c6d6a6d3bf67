import CoreKit

/// Apple's bands for the hitch time ratio (ms of hitch per second of scrolling).
public enum HitchBand: String, Sendable, Hashable, CaseIterable {
    /// Under 5 ms/s: hitches are rare enough that people do not notice.
    case good
    /// 5 to 10 ms/s: noticeable; worth investigating.
    case warning
    /// Over 10 ms/s: scrolling feels broken.
    case critical

    public init(ratioMillisecondsPerSecond ratio: Double) {
        self = ratio < 5 ? .good : (ratio <= 10 ? .warning : .critical)
    }
}

/// Keeps every frame's record and answers with the aggregates a hitch report needs.
///
/// Detailed records are kept up to ``retainedRecordLimit`` (for traces and the HUD);
/// aggregates and commit durations cover every frame, so the report stays exact however
/// long the run. Memory: about 8 bytes a frame beyond the retained records.
public struct HitchMeter: Sendable {
    public static let defaultRetainedRecordLimit = 200_000

    public private(set) var records: [FrameRecord] = []
    public let retainedRecordLimit: Int
    public private(set) var frames = 0
    public private(set) var hitches = 0
    public private(set) var totalHitchTime: Duration = .zero
    public private(set) var skippedTicks = 0
    public private(set) var idleJobs = 0
    public private(set) var idleWorkTime: Duration = .zero
    public private(set) var firstTick: Duration?
    public private(set) var lastPresented: Duration?
    /// Time the loop spent quiet (no frame needed): not part of the span the ratio divides by.
    public private(set) var quietTime: Duration = .zero
    private var commitNanoseconds: [Int64] = []

    public init(retainedRecordLimit: Int = HitchMeter.defaultRetainedRecordLimit) {
        self.retainedRecordLimit = retainedRecordLimit
    }

    public mutating func record(_ frame: FrameRecord) {
        if records.count < retainedRecordLimit { records.append(frame) }
        frames += 1
        if frame.isHitch {
            hitches += 1
            totalHitchTime += frame.hitchTime
        }
        skippedTicks += frame.skippedTicks
        idleJobs += frame.jobsRun
        idleWorkTime += frame.idleWorkTime
        if firstTick == nil { firstTick = frame.tick }
        lastPresented = frame.presentedAt
        commitNanoseconds.append(frame.commitDuration.nanoseconds)
    }

    /// Notes a quiet gap (no frames, nothing on screen changing) between two frames.
    public mutating func recordQuiet(_ gap: Duration) {
        if frames > 0 { quietTime += gap }
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

    public var band: HitchBand { HitchBand(ratioMillisecondsPerSecond: hitchRatio) }

    /// The `p` quantile (nearest rank) of the last `count` commits, for live displays.
    /// - Complexity: O(count log count), independent of the run's length.
    public func recentCommitPercentile(_ p: Double, last count: Int) -> Duration {
        let recent = commitNanoseconds.suffix(count).sorted()
        guard !recent.isEmpty else { return .zero }
        let rank = Int((p * Double(recent.count)).rounded(.up))
        return .nanoseconds(recent[min(max(rank, 1), recent.count) - 1])
    }

    /// The summary of everything recorded so far.
    /// - Complexity: O(n log n) in the number of frames (a sort for the percentiles).
    public func report() -> HitchReport {
        let sorted = commitNanoseconds.sorted()
        func percentile(_ p: Double) -> Duration {
            guard !sorted.isEmpty else { return .zero }
            let rank = Int((p * Double(sorted.count)).rounded(.up))
            return .nanoseconds(sorted[min(max(rank, 1), sorted.count) - 1])
        }
        let span = activeSpan
        return HitchReport(
            frames: frames, hitches: hitches, totalHitchTime: totalHitchTime, duration: span,
            skippedTicks: skippedTicks, idleJobs: idleJobs, idleWorkTime: idleWorkTime,
            commitP50: percentile(0.50), commitP95: percentile(0.95),
            commitP99: percentile(0.99), commitMax: .nanoseconds(sorted.last ?? 0)
        )
    }
}

/// Aggregates of a run: what `--report` prints and the HUD shows.
public struct HitchReport: Sendable, Hashable {
    public let frames: Int
    /// Frames whose commit ended after their deadline.
    public let hitches: Int
    public let totalHitchTime: Duration
    /// From the first frame's tick to the vsync that showed the last frame, less quiet gaps.
    public let duration: Duration
    public let skippedTicks: Int
    public let idleJobs: Int
    public let idleWorkTime: Duration
    /// Commit durations by nearest rank (p50 of 1…100 ms is 50 ms).
    public let commitP50: Duration
    public let commitP95: Duration
    public let commitP99: Duration
    public let commitMax: Duration

    /// Milliseconds of hitch per second of run: Apple's headline metric.
    public var hitchRatio: Double {
        duration > .zero ? totalHitchTime.milliseconds / (duration.milliseconds / 1000) : 0
    }

    public var band: HitchBand { HitchBand(ratioMillisecondsPerSecond: hitchRatio) }
}

/// Commit durations in bounded memory, for percentiles of runs of any length.
///
/// Log-linear buckets (as HdrHistogram): values under 1,024 ns are exact; above, each power
/// of two is split into 512 buckets, so a value is known to within 0.2 %. 64 × 512 counts,
/// 256 KiB, cover every `Int64`. A percentile is the largest value its bucket can hold,
/// never lower than the true one, and at most the exact maximum.
public struct CommitHistogram: Sendable {
    static let subBucketBits = 9
    static let subBuckets = 1 << subBucketBits
    private var counts: [Int32]
    /// Durations recorded.
    public private(set) var count = 0
    /// The longest recorded, in nanoseconds.
    public private(set) var maximum: Int64 = 0

    /// An empty histogram.
    public init() {
        counts = Array(repeating: 0, count: 64 * Self.subBuckets + 1024)
    }

    /// Adds one commit duration, in nanoseconds.
    /// - Complexity: O(1).
    public mutating func record(_ nanoseconds: Int64) {
        let value = max(nanoseconds, 0)
        counts[Self.index(of: value)] += 1
        count += 1
        maximum = max(maximum, value)
    }

    /// The nearest-rank `p` quantile, to within the bucket's width.
    public func percentile(_ p: Double) -> Int64 {
        guard count > 0 else { return 0 }
        let rank = min(max(Int((p * Double(count)).rounded(.up)), 1), count)
        var seen = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += Int(bucketCount)
            if seen >= rank { return min(Self.highestValue(in: index), maximum) }
        }
        return maximum
    }

    static func index(of value: Int64) -> Int {
        if value < 1024 { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount  // ≥ 10
        let shift = exponent - subBucketBits
        let sub = Int((value >> Int64(shift)) & Int64(subBuckets - 1))
        return 1024 + (exponent - 10) * subBuckets + sub
    }

    static func highestValue(in index: Int) -> Int64 {
        if index < 1024 { return Int64(index) }
        let exponent = (index - 1024) / subBuckets + 10
        let sub = Int64((index - 1024) % subBuckets)
        let shift = Int64(exponent - subBucketBits)
        let low = (Int64(1) << Int64(exponent)) | (sub << shift)
        return low + (Int64(1) << shift) - 1
    }
}

extension Duration {
    /// Whole nanoseconds; frame arithmetic is done in integers so it is exact.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in microseconds, with a fraction.
    public var microseconds: Double { Double(nanoseconds) / 1_000 }

    /// The duration in milliseconds, with a fraction (how frame times are read).
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// A duration from fractional milliseconds, rounded to the nanosecond.
    public static func milliseconds(_ value: Double) -> Duration {
        .nanoseconds(Int64((value * 1_000_000).rounded()))
    }
}

/// `value` with exactly `decimals` decimals ("12.50"), without Foundation's formatters;
/// non-finite values print as "-".
public func formatFixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    let fraction = String(scaled % Int64(scale))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

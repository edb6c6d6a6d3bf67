extension Duration {
    /// Whole nanoseconds; frame arithmetic is done in integers so it is exact.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    public var microseconds: Double { Double(nanoseconds) / 1_000 }

    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// A duration from fractional milliseconds, rounded to the nanosecond.
    public static func milliseconds(_ value: Double) -> Duration {
        .nanoseconds(Int64((value * 1_000_000).rounded()))
    }
}

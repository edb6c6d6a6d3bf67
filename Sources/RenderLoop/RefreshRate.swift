import CoreKit

/// A display refresh rate: the cadence of vsync ticks and so the commit deadline.
///
/// Stored in millihertz so that 59.94 Hz is exact and tick times are integer arithmetic:
/// tick *n* is `n · 10¹² / mHz` nanoseconds after the first, computed afresh for every *n*,
/// so ticks never accumulate rounding drift.
public struct RefreshRate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The accepted range, 24 to 480 Hz: below 24 Hz there is no "scrolling" to judge,
    /// above 480 Hz no display exists to match.
    public static let acceptedHertz: ClosedRange<Double> = 24...480

    /// 60 Hz: a 16.67 ms deadline.
    public static let hz60 = RefreshRate(uncheckedMillihertz: 60_000)
    /// 120 Hz (ProMotion): an 8.33 ms deadline.
    public static let hz120 = RefreshRate(uncheckedMillihertz: 120_000)

    /// The rate in thousandths of a hertz (exact, so ticks never drift).
    public let millihertz: Int64

    private init(uncheckedMillihertz: Int64) {
        millihertz = uncheckedMillihertz
    }

    /// A rate in hertz, e.g. 60, 120 or 59.94 (three decimals at most).
    public init(hertz: Double) throws(RefreshRateError) {
        try self.init(hertz: hertz, as: hertz.rounded() == hertz && hertz.isFinite ? "\(Int(hertz))" : "\(hertz)")
    }

    private init(hertz: Double, as text: String) throws(RefreshRateError) {
        guard hertz.isFinite, Self.acceptedHertz.contains(hertz) else { throw .outOfRange(text) }
        let milli = (hertz * 1000).rounded()
        guard abs(milli - hertz * 1000) < 1e-6 else { throw .tooPrecise(text) }
        millihertz = Int64(milli)
    }

    /// Parses a command-line value such as `120`, `59.94` or `120hz`.
    public init(parsing text: String) throws(RefreshRateError) {
        var body = text.trimmingWhitespace().lowercased()
        if body.hasSuffix("hz") { body.removeLast(2) }
        guard let value = Double(body) else { throw .notANumber(text) }
        try self.init(hertz: value, as: body)
    }

    /// The rate in hertz.
    public var hertz: Double { Double(millihertz) / 1000 }

    /// The time between two ticks, rounded down to the nanosecond.
    public var period: Duration { tickOffset(1) }

    /// Offset of tick `n` from tick 0.
    /// - Complexity: O(1); exact for any `n` a process can reach (128-bit intermediate).
    public func tickOffset(_ n: Int) -> Duration {
        .nanoseconds(Int64(Int128(n) * 1_000_000_000_000 / Int128(millihertz)))
    }

    /// The first tick index whose offset is at or after `offset` (negative offsets give 0).
    /// - Complexity: O(1).
    public func firstTick(atOrAfter offset: Duration) -> Int {
        let ns = Int128(max(offset.nanoseconds, 0))
        var n = Int(ns * Int128(millihertz) / 1_000_000_000_000)
        while tickOffset(n) < offset { n += 1 }
        while n > 0 && tickOffset(n - 1) >= offset { n -= 1 }
        return n
    }

    public var description: String {
        millihertz % 1000 == 0 ? "\(millihertz / 1000) Hz" : "\(hertz) Hz"
    }

    public static func < (a: RefreshRate, b: RefreshRate) -> Bool { a.millihertz < b.millihertz }
}

/// Why a refresh rate was refused; the text is what the command line prints.
public enum RefreshRateError: Error, Equatable, CustomStringConvertible {
    /// The text is not a number.
    case notANumber(String)
    /// Outside ``RefreshRate/acceptedHertz``.
    case outOfRange(String)
    /// More precise than a thousandth of a hertz.
    case tooPrecise(String)

    public var description: String {
        switch self {
        case .notANumber(let text):
            "refresh rate '\(text)' is not a number of hertz (try 60 or 120)"
        case .outOfRange(let text):
            "refresh rate \(text) Hz is outside 24–480 Hz (try 60 or 120)"
        case .tooPrecise(let text):
            "refresh rate \(text) Hz has more than three decimals (e.g. 59.94 is fine)"
        }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// HTTP dates (RFC 9110, section 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT` written, and that
/// form, the obsolete RFC 850 form and asctime's read. Seconds since 1970, UTC; no
/// Foundation formatter (they depend on a locale and cost a formatter per thread).
public enum HTTPDate {
    static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since 1970 as an IMF-fixdate.
    public static func format(_ seconds: Int64) -> String {
        let day = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - day * 86_400
        let (year, month, dayOfMonth) = civil(fromDays: day)
        let weekday = days[Int(((day % 7) + 7) % 7)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(dayOfMonth)) \(months[Int(month) - 1]) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// Seconds since 1970 of an HTTP date in any of its three forms; nil for anything else
    /// (a cache treats an unreadable `Expires` as already expired).
    public static func parse(_ text: String) -> Int64? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT; RFC 850: Sunday 06 Nov 94 08:49:37 GMT;
        // asctime: Sun Nov 6 08:49:37 1994.
        var day: Int64?, month: Int?, year: Int64?, time: String?
        if words.count == 6, words[5] == "GMT" {
            day = Int64(words[1]); month = months.firstIndex(of: words[2]); year = Int64(words[3]); time = words[4]
            if let short = year, words[3].count == 2 { year = short < 70 ? 2000 + short : 1900 + short }
        } else if words.count == 5 {
            month = months.firstIndex(of: words[1]); day = Int64(words[2]); time = words[3]; year = Int64(words[4])
        }
        guard let day, let month, let year, let time, (1...31).contains(day), (1...9999).contains(year) else { return nil }
        let parts = time.split(separator: ":").compactMap { Int64($0) }
        guard parts.count == 3, (0...23).contains(parts[0]), (0...59).contains(parts[1]), (0...60).contains(parts[2]) else { return nil }
        return days(fromCivil: year, Int64(month + 1), day) * 86_400 + parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Howard Hinnant's days-from-civil and its inverse (proleptic Gregorian calendar).
    static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// A `Range: bytes=…` request header (RFC 9110, section 14.1.2), one range only (what a
/// resuming download sends); several ranges are served whole, as the RFC allows.
public enum ByteRange: Sendable, Hashable {
    case from(Int)
    case span(Int, Int)
    case suffix(Int)

    /// Nil when the header is absent, malformed or asks for several ranges.
    public init?(header: String?) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = spec[0].trimmingSpaces, last = spec[1].trimmingSpaces
        if first.isEmpty {
            guard let count = Int(last), count > 0 else { return nil }
            self = .suffix(count)
        } else if last.isEmpty {
            guard let start = Int(first), start >= 0 else { return nil }
            self = .from(start)
        } else {
            guard let start = Int(first), let end = Int(last), start >= 0, end >= start else { return nil }
            self = .span(start, end)
        }
    }

    /// The bytes this range selects of a body of `length` bytes, or nil when it selects
    /// none (the answer is then 416).
    public func resolved(length: Int) -> Range<Int>? {
        switch self {
        case .from(let start): start < length ? start..<length : nil
        case .span(let start, let end): start < length ? start..<min(end + 1, length) : nil
        case .suffix(let count): length > 0 ? max(0, length - count)..<length : nil
        }
    }
}

extension Substring {
    var trimmingSpaces: String { String(self).trimmingSpaces }
}

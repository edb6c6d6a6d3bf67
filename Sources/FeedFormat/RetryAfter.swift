/// `Retry-After` (RFC 9110 § 10.2.3): how long a server that answered 429 or 503 asks to be
/// left alone, as delta-seconds or an HTTP-date. Pure and fuzzed: a server chooses the text.
public enum RetryAfter {
    /// The wait in seconds, at most `cap` (a huge number is the cap, a date past is 0); nil
    /// for anything that is neither form (a negative, a fraction, words).
    /// `now`: seconds since 1970, what an HTTP-date is read against.
    public static func seconds(_ value: String, now: Int64, cap: Int64) -> Int64? {
        let text = value.trimmingSpaces
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            // More digits than an Int64 holds is still a number: the longest wait.
            guard text.unicodeScalars.count <= 18, let seconds = Int64(text) else { return cap }
            return min(seconds, cap)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let (wait, overflow) = date.subtractingReportingOverflow(now)
        if overflow { return date > now ? cap : 0 }
        return min(max(0, wait), cap)
    }
}

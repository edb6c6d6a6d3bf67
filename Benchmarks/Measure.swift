#if canImport(Glibc)
import Glibc
#endif
import CoreKit
import RenderLoop

/// Shared helpers: wall time, CPU time, peak memory, medians.
enum Measure {
    static func wall<T>(_ body: () -> T) -> (Duration, T) {
        let clock = MonotonicClock()
        let start = clock.now
        let result = body()
        return (clock.now - start, result)
    }

    /// User + system CPU time of this process so far.
    static func cpuTime() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Nearest-rank percentile.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Resets the kernel's peak-RSS mark (VmHWM) so a later read measures one phase.
    static func resetPeakMemory() {
        if let file = fopen("/proc/self/clear_refs", "w") {
            fputs("5", file)
            fclose(file)
        }
    }

    /// A field of /proc/self/status in megabytes (VmRSS, VmHWM).
    static func statusMegabytes(_ field: String) -> Double {
        guard let file = fopen("/proc/self/status", "r") else { return .nan }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(field + ":") {
                let kb = Double(text.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "") ?? .nan
                return kb / 1024
            }
        }
        return .nan
    }

    static func format(_ value: Double, _ decimals: Int = 2) -> String { formatFixed(value, decimals) }

    static func json(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return format(value, 3)
    }
}

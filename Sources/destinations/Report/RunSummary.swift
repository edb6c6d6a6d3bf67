import CoreKit
import RenderLoop

/// The end-of-run summary in text or JSON, and the optional trace file.
struct RunSummary {
    let options: RunOptions
    let refreshRate: RefreshRate
    let prefetch: Bool
    let report: HitchReport
    let workload: SteadyScrollWorkload
    let elapsed: Duration

    func text() -> String {
        """
        destinations: \(report.frames) frames at \(refreshRate) in \(fixed(elapsed.milliseconds / 1000, 2)) s, prefetch \(prefetch ? "on" : "off"), cell cost \(fixed(workload.cellCost.milliseconds, 1)) ms
        hitches \(report.hitches), hitch time \(fixed(report.totalHitchTime.milliseconds, 1)) ms, hitch ratio \(fixed(report.hitchRatio, 2)) ms/s (\(report.band.rawValue))
        commit p50 \(fixed(report.commitP50.milliseconds, 3)) ms, p95 \(fixed(report.commitP95.milliseconds, 3)) ms, p99 \(fixed(report.commitP99.milliseconds, 3)) ms, max \(fixed(report.commitMax.milliseconds, 3)) ms
        cells prepared in commit \(workload.preparedInCommit), in idle time \(workload.preparedIdle)
        """
    }

    func json() -> String {
        let fields: [(String, String)] = [
            ("refresh_rate_hz", fixed(refreshRate.hertz, 3)),
            ("prefetch", prefetch ? "\"on\"" : "\"off\""),
            ("cell_cost_ms", fixed(workload.cellCost.milliseconds, 3)),
            ("duration_s", fixed(elapsed.milliseconds / 1000, 3)),
            ("frames", "\(report.frames)"),
            ("hitches", "\(report.hitches)"),
            ("hitch_time_ms", fixed(report.totalHitchTime.milliseconds, 3)),
            ("hitch_ratio_ms_per_s", fixed(report.hitchRatio, 3)),
            ("band", "\"\(report.band.rawValue)\""),
            ("commit_ms", "{\"p50\":\(fixed(report.commitP50.milliseconds, 3)),\"p95\":\(fixed(report.commitP95.milliseconds, 3)),\"p99\":\(fixed(report.commitP99.milliseconds, 3)),\"max\":\(fixed(report.commitMax.milliseconds, 3))}"),
            ("cells_prepared_in_commit", "\(workload.preparedInCommit)"),
            ("cells_prepared_idle", "\(workload.preparedIdle)"),
            ("skipped_ticks", "\(report.skippedTicks)"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    func printAndTrace(records: [FrameRecord]) throws {
        print(options.report == .json ? json() : text())
        if let path = options.traceFile {
            try Platform.writeFile(ChromeTrace.json(for: records, refreshRate: refreshRate), to: path)
        }
    }
}

/// A number with exactly `decimals` decimals (0 for non-finite values, as reports expect).
func fixed(_ value: Double, _ decimals: Int) -> String {
    value.isFinite ? formatFixed(value, decimals) : formatFixed(0, decimals)
}

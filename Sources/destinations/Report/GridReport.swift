import CoreKit
import FeedClient
import HTTPCache
import ImagePipeline
import RenderLoop
import TerminalFront

/// The report of one grid run, as text for people and JSON for scripts and the bench.
struct GridReport {
    var refreshRateHz: Double
    var prefetch: Bool
    var images: String
    var cellCostMs: Double
    var scenario: String?
    var posts: Int
    var skippedFiles: Int
    /// Each skipped file of a photo folder and why (a named pipe, a broken link, not a photo…).
    var skipped: [(name: String, reason: String)]
    var stress: Int
    var workers: Int
    var workerPriority: String
    /// `--output-writer`: who wrote the frames to the terminal.
    var outputWriter: String
    /// The frame loop's time slice as the kernel reports it, in ms (nil: none reported).
    var frameSliceMs: Double?
    var durationS: Double
    var hitch: HitchReport
    var cellsPreparedInCommit: Int
    var cellsPreparedIdle: Int
    var prefetchBatches: Int
    var prefetchCancels: Int
    var placeholderCellFramesPct: Double
    var bytesWritten: Int
    var bytesPerFrame: Double
    var scrollFrames: Int
    var bytesPerScrollFrame: Double
    var exposedRowsPerScrollFrame: Double
    /// Bytes of one row in a full repaint of the final screen, measured at the end.
    var bytesPerRowFullPaint: Double
    var synchronizedOutput: Bool
    /// How the terminal kept up (coalesced frames, its measured rate, the most waiting).
    var output: OutputStatistics
    /// Ticks the terminal took to take the launch frame (not hitches: the launch's own).
    var launchOutputTicks: Int
    var cacheHits: Int, cacheMisses: Int, cacheEvictions: Int, cacheBytes: Int
    /// Over a feed with a disk cache: what it spared the network, and what it holds.
    var diskCache: (spared: CacheTally, held: DiskCache.Counters)?
    var firstFrameMs: Double
    /// The launch frame's commit, which the hitch figures leave out.
    var launchCommitMs: Double
    var rssFirstFrameMb: Double
    var rssHalfwayMb: Double?
    var rssEndMb: Double
    var peakRssMb: Double
    /// The freedesktop thumbnail cache's counters (nil when not used: no `--photos`, or
    /// `--no-thumbnail-cache`).
    var thumbnailCache: ThumbnailCache.Counters?
    /// Thumbnails decoded and converted by the workers.
    var thumbnailsPrepared: Int
    /// The main thread's minor page faults per frame after the launch frame.
    var minorFaultsPerFrame: Double
    /// `--scenario idle`: seconds measured, CPU in % of a core, bytes written.
    var idle: (seconds: Double, cpuPercent: Double, bytes: Int)?
    /// Waits instead of frames while nothing changed.
    var quietWaits: Int
    /// Filter keystroke → the first frame showing its result, ms (p50, p95, max); nil when
    /// no filter was typed.
    var filterLatency: (p50: Double, p95: Double, max: Double, keys: Int)?
    /// The grid at rest → every visible thumbnail whole (pixels sent, no placeholder), ms;
    /// nil when the grid never came to rest; and rests cut short by more motion.
    var settle: (p50: Double, p95: Double, max: Double, keys: Int)?
    var interruptedRests: Int
    /// Interrupted rests by what they still waited for.
    var interruptedRestsWaiting: [RestWait: Int] = [:]
    /// A feed's traffic (nil without `--feed`).
    var network: NetworkReport? = nil
    /// A feed's likes this run: made, taken by the server, rolled back (nil without a
    /// feed's outbox: no feed, or `--no-state`).
    var outbox: PersonalState.Tally? = nil
    /// Frames after which the terminal still worked on what it was sent: the image workers
    /// run one thread fewer then and for a little after (D-083).
    var terminalBusyFrames = 0

    /// Scrolling frames' bytes over what their newly exposed rows cost in a full paint.
    var scrollBytesRatio: Double {
        let exposed = exposedRowsPerScrollFrame * bytesPerRowFullPaint
        return exposed > 0 ? bytesPerScrollFrame / exposed : 0
    }

    /// The disk cache's line of the text summary, or nothing.
    var diskCacheText: String {
        guard let (spared, held) = diskCache else { return "" }
        return "disk cache: \(spared.diskHits) fresh hits, \(spared.revalidated304) revalidated (304), \(spared.staleServed) stale shown, "
            + "\(spared.bytesSaved >> 10) KiB not downloaded; holds \(held.entries) responses, \(held.bytes >> 10) KiB, \(held.evictions) evicted\n"
    }

    /// The disk cache's figures inside the report's `cache` object (issue 26), or nothing.
    var diskCacheJSON: String {
        guard let (spared, held) = diskCache else { return "" }
        return ",\"disk_hits\":\(spared.diskHits),\"revalidated_304\":\(spared.revalidated304),\"stale_served\":\(spared.staleServed),"
            + "\"bytes_saved\":\(spared.bytesSaved),\"disk_entries\":\(held.entries),\"disk_bytes\":\(held.bytes),\"disk_evictions\":\(held.evictions)"
    }

    func json() -> String {
        func number(_ value: Double, _ decimals: Int = 3) -> String { fixed(value, decimals) }
        func text(_ value: String) -> String { JSONString.quoted(value) }
        let fields: [(String, String)] = [
            ("refresh_rate_hz", number(refreshRateHz)),
            ("prefetch", text(prefetch ? "on" : "off")),
            ("images", text(images)),
            ("cell_cost_ms", number(cellCostMs)),
            ("scenario", scenario.map(text) ?? "null"),
            ("posts", "\(posts)"),
            ("skipped_files", "\(skippedFiles)"),
            ("skipped", "[" + skipped.map { "{\"name\":\(text($0.name)),\"reason\":\(text($0.reason))}" }.joined(separator: ",") + "]"),
            ("stress", "\(stress)"),
            ("workers", "\(workers)"),
            ("worker_priority", text(workerPriority)),
            ("terminal_busy_frames", "\(terminalBusyFrames)"),
            ("output_writer", text(outputWriter)),
            ("frame_slice_ms", frameSliceMs.map { number($0) } ?? "null"),
            ("duration_s", number(durationS)),
            ("frames", "\(hitch.frames)"),
            ("hitches", "\(hitch.hitches)"),
            ("hitches_by_kind", "{\"commit\":\(hitch.commitHitches),\"commit_from_waiting\":\(hitch.commitHitchesFromWaiting),\"terminal\":\(hitch.terminalHitches)}"),
            ("hitch_time_by_kind_ms", "{\"commit\":\(number(hitch.commitHitchTime.milliseconds)),\"terminal\":\(number(hitch.terminalHitchTime.milliseconds))}"),
            ("terminal", "{\"behind_frames\":\(hitch.terminalBehindFrames),\"coalesced_frames\":\(output.coalescedFrames),\"launch_ticks\":\(launchOutputTicks),"
                + "\"drain_bytes_per_s\":{\"p50\":\(output.drainMedian.map { number($0, 0) } ?? "null"),\"min\":\(output.drainMinimum.map { number($0, 0) } ?? "null"),\"samples\":\(output.drainSamples)},"
                + "\"pending_bytes_max\":\(output.pendingBytesMax),"
                + "\"parse_round_trip_ms\":{\"p50\":\(output.parseRoundTripMedian.map { number($0.milliseconds) } ?? "null"),\"max\":\(output.parseRoundTripWorst.map { number($0.milliseconds) } ?? "null"),\"answered\":\(output.parseAnswers),\"lost\":\(output.parseRequestsLost),\"image_price_bytes\":\(output.imagePrice.map(String.init) ?? "null"),\"batches_fitted\":\(output.batchesFitted),\"fitted_price_bytes\":\(output.imagePriceFitted.map(String.init) ?? "null"),\"fitted_price_error_bytes\":\(output.imagePriceError.map(String.init) ?? "null")},"
                + "\"pixel_images\":{\"whole\":\(output.wholePicturesSent),\"strips\":\(output.pixelStripsSent)},"
                + "\"color_pairs\":{\"rounds\":\(output.colorPairRounds),\"recycled\":\(output.recycledColorPairs),\"approximated_cells\":\(output.approximatedCells)}}"),
            ("hitch_time_ms", number(hitch.totalHitchTime.milliseconds)),
            ("hitch_ratio_ms_per_s", number(hitch.hitchRatio)),
            ("band", text(hitch.band.rawValue)),
            ("commit_ms", "{\"p50\":\(number(hitch.commitP50.milliseconds)),\"p95\":\(number(hitch.commitP95.milliseconds)),\"p99\":\(number(hitch.commitP99.milliseconds)),\"max\":\(number(hitch.commitMax.milliseconds))}"),
            ("cells_prepared_in_commit", "\(cellsPreparedInCommit)"),
            ("cells_prepared_idle", "\(cellsPreparedIdle)"),
            ("prefetch_batches", "\(prefetchBatches)"),
            ("prefetch_cancels", "\(prefetchCancels)"),
            ("placeholder_cell_frames_pct", number(placeholderCellFramesPct, 2)),
            ("bytes_written", "\(bytesWritten)"),
            ("bytes_per_frame", number(bytesPerFrame, 1)),
            ("scroll_frames", "\(scrollFrames)"),
            ("bytes_per_scroll_frame", number(bytesPerScrollFrame, 1)),
            ("exposed_rows_per_scroll_frame", number(exposedRowsPerScrollFrame, 2)),
            ("bytes_per_row_full_paint", number(bytesPerRowFullPaint, 1)),
            ("scroll_bytes_ratio", number(scrollBytesRatio, 3)),
            ("synchronized_output", synchronizedOutput ? "true" : "false"),
            ("cache", "{\"hits\":\(cacheHits),\"misses\":\(cacheMisses),\"evictions\":\(cacheEvictions),\"bytes\":\(cacheBytes)\(diskCacheJSON)}"),
            ("first_frame_ms", number(firstFrameMs, 1)),
            ("launch_commit_ms", number(launchCommitMs)),
            ("rss_mb", "{\"first_frame\":\(number(rssFirstFrameMb, 1)),\"halfway\":\(rssHalfwayMb.map { number($0, 1) } ?? "null"),\"end\":\(number(rssEndMb, 1))}"),
            ("peak_rss_mb", number(peakRssMb, 1)),
            ("thumbnails_prepared", "\(thumbnailsPrepared)"),
            ("network", network?.json() ?? "null"),
            ("outbox", outbox.map { "{\"queued\":\($0.queued),\"sent\":\($0.sent),\"rolled_back\":\($0.rolledBack)}" } ?? "null"),
            ("thumbnail_cache", thumbnailCache.map { "{\"hits\":\($0.hits),\"embedded_hits\":\($0.embeddedHits),\"photo_decodes\":\($0.photoDecodes),\"written\":\($0.written),\"failures_recorded\":\($0.failuresRecorded),\"known_failures\":\($0.knownFailures)}" } ?? "null"),
            ("minor_faults_per_frame", number(minorFaultsPerFrame, 3)),
            ("quiet_waits", "\(quietWaits)"),
            ("settle_ms", "{\"p50\":\(settle.map { number($0.p50) } ?? "null"),\"p95\":\(settle.map { number($0.p95) } ?? "null"),"
                + "\"max\":\(settle.map { number($0.max) } ?? "null"),\"rests\":\(settle?.keys ?? 0),\"interrupted\":\(interruptedRests),"
                + "\"interrupted_waiting_on\":{" + RestWait.allCases.map { "\"\($0.rawValue)\":\(interruptedRestsWaiting[$0, default: 0])" }.joined(separator: ",") + "}}"),
            ("filter_latency_ms", filterLatency.map { "{\"p50\":\(number($0.p50)),\"p95\":\(number($0.p95)),\"max\":\(number($0.max)),\"keys\":\($0.keys)}" } ?? "null"),
            ("idle_seconds", idle.map { number($0.seconds) } ?? "null"),
            ("idle_cpu_pct", idle.map { number($0.cpuPercent) } ?? "null"),
            ("idle_bytes", idle.map { "\($0.bytes)" } ?? "null"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    func text() -> String {
        let rate = fixed(refreshRateHz, refreshRateHz == refreshRateHz.rounded() ? 0 : 2)
        return """
        destinations: \(hitch.frames) frames at \(rate) Hz in \(fixed(durationS, 2)) s\(scenario.map { ", scenario \($0)" } ?? ""), prefetch \(prefetch ? "on" : "off"), images \(images), \(posts) posts, \(workers) image workers (\(workerPriority) priority)\(terminalBusyFrames > 0 && workers > 1 ? ", one fewer while the terminal was busy (\(terminalBusyFrames) frames)" : "")\(stress > 0 ? ", \(stress) busy threads" : "")
        hitches \(hitch.hitches) (commit \(hitch.commitHitches), terminal \(hitch.terminalHitches)), hitch time \(fixed(hitch.totalHitchTime.milliseconds, 1)) ms, hitch ratio \(fixed(hitch.hitchRatio, 2)) ms/s (\(hitch.band.rawValue))\(hitch.commitHitches > 0 ? "; \(hitch.commitHitchesFromWaiting) of the late commits waited for a core" : "")
        terminal behind at \(hitch.terminalBehindFrames) ticks, \(output.coalescedFrames) frames coalesced, at most \(output.pendingBytesMax) bytes waiting\(output.drainMedian.map { ", took \(fixed($0 / 1000, 0)) KB/s while behind (slowest \(fixed((output.drainMinimum ?? 0) / 1000, 0)))" } ?? "")\(output.parseRoundTripMedian.map { ", pixels parsed in \(fixed($0.milliseconds, 1)) ms (worst \(fixed((output.parseRoundTripWorst ?? $0).milliseconds, 1)), \(output.parseAnswers) answers, \(output.parseRequestsLost) lost\(output.imagePrice.map { ", an image priced at \($0) bytes" } ?? ""))" } ?? "")
        commit p50 \(fixed(hitch.commitP50.milliseconds, 3)) ms, p95 \(fixed(hitch.commitP95.milliseconds, 3)) ms, p99 \(fixed(hitch.commitP99.milliseconds, 3)) ms, max \(fixed(hitch.commitMax.milliseconds, 3)) ms
        cells prepared in commit \(cellsPreparedInCommit), in idle time \(cellsPreparedIdle); prefetch batches \(prefetchBatches), cancels \(prefetchCancels); placeholders \(fixed(placeholderCellFramesPct, 1)) % of cell-frames
        output \(bytesWritten) bytes, \(fixed(bytesPerFrame, 0)) per frame; scrolling \(fixed(bytesPerScrollFrame, 0)) per frame for \(fixed(exposedRowsPerScrollFrame, 2)) new rows = \(fixed(scrollBytesRatio, 2))× their full-paint cost
        \(network?.text ?? "")\(diskCacheText)\(outbox.map { "likes: \($0.queued) made, \($0.sent) sent, \($0.rolledBack) rolled back\n" } ?? "")\(filterLatency.map { "filter keys \($0.keys): keystroke to result p50 \(fixed($0.p50, 1)) ms, p95 \(fixed($0.p95, 1)) ms, max \(fixed($0.max, 1)) ms\n" } ?? "")\(skipped.isEmpty ? "" : "skipped: " + skipped.map { "\($0.name) (\($0.reason))" }.joined(separator: ", ") + "\n")\(idle.map { "idle for \(fixed($0.seconds, 1)) s after the first complete screen: \(fixed($0.cpuPercent, 2)) % of a core, \($0.bytes) bytes\n" } ?? "")\(thumbnailCache.map { "thumbnail cache: \($0.hits) read, \($0.embeddedHits) from EXIF, \($0.photoDecodes) photos decoded, \($0.written) written, \($0.failuresRecorded + $0.knownFailures) failed\n" } ?? "")cache \(cacheHits) hits, \(cacheMisses) misses, \(cacheEvictions) evictions, \(cacheBytes >> 10) KiB; first frame \(fixed(firstFrameMs, 1)) ms after launch (its commit \(fixed(launchCommitMs, 1)) ms, not counted above); memory \(fixed(rssFirstFrameMb, 1)) MB at the first frame, \(fixed(rssEndMb, 1)) MB at the end, peak \(fixed(peakRssMb, 1)) MB
        """
    }
}

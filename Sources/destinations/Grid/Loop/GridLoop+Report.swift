import CoreKit
import RenderLoop

/// The run's report, from the scheduler's meter, the screen, the terminal and the run's
/// statistics.
extension GridLoop {
    /// p50, p95 and max by nearest rank, and the count; nil for no values.
    static func percentiles(_ values: [Double]) -> (p50: Double, p95: Double, max: Double, keys: Int)? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double { sorted[min(sorted.count, max(1, Int((p * Double(sorted.count)).rounded(.up)))) - 1] }
        return (rank(0.5), rank(0.95), sorted[sorted.count - 1], sorted.count)
    }

    func makeReport() -> GridReport {
        let hitch = scheduler.meter.report()
        let figures = view.figures, catalogue = view.catalogue, stats = measure.stats
        let cache = figures.cache
        let megabyte = 1024.0 * 1024.0
        func perFrame(_ total: Int, _ frames: Int) -> Double { frames > 0 ? Double(total) / Double(frames) : 0 }
        return GridReport(
            refreshRateHz: scheduler.refreshRate.hertz, prefetch: scheduler.isIdleWorkEnabled, images: model.imageMode.rawValue,
            cellCostMs: options.cellCost.milliseconds, scenario: options.scenario?.rawValue, posts: view.posts.postCount,
            skippedFiles: catalogue.skippedFiles.count, skipped: catalogue.skippedFiles.map { ($0.name, $0.reason) },
            stress: options.stress, workers: options.workers, workerPriority: options.workerPriority.rawValue,
            outputWriter: options.outputWriter.rawValue, frameSliceMs: FrameLoopScheduling.currentSlice?.milliseconds,
            durationS: (clock.now - measure.startedAt).milliseconds / 1000, hitch: hitch,
            cellsPreparedInCommit: figures.cellsPreparedInCommit, cellsPreparedIdle: figures.cellsPreparedIdle,
            prefetchBatches: figures.prefetchBatches, prefetchCancels: figures.cancelBatches,
            placeholderCellFramesPct: stats.placeholderPercent,
            bytesWritten: terminal.bytesWritten, bytesPerFrame: perFrame(terminal.bytesWritten, stats.frames),
            scrollFrames: stats.scrollFrames, bytesPerScrollFrame: perFrame(stats.scrollBytes, stats.scrollFrames),
            exposedRowsPerScrollFrame: perFrame(stats.exposedRows, stats.scrollFrames),
            bytesPerRowFullPaint: measure.fullPaintBytesPerRow, synchronizedOutput: terminal.supportsSynchronizedOutput,
            output: terminal.outputStatistics, launchOutputTicks: scheduler.launchOutputTicks,
            cacheHits: cache.hits, cacheMisses: cache.misses, cacheEvictions: cache.evictions, cacheBytes: cache.bytes,
            diskCache: sources.feed.flatMap { feed in feed.fetcher.cache.map { (feed.fetcher.cacheFigures, $0.counters) } },
            firstFrameMs: stats.firstFrameMs ?? 0, launchCommitMs: scheduler.launchFrame?.commitDuration.milliseconds ?? 0,
            rssFirstFrameMb: Double(stats.residentAtFirstFrame) / megabyte, rssHalfwayMb: stats.residentHalfway.map { Double($0) / megabyte },
            rssEndMb: Double(Platform.residentBytes()) / megabyte, peakRssMb: Double(Platform.peakResidentBytes()) / megabyte,
            thumbnailCache: figures.thumbnailCache, thumbnailsPrepared: figures.loads.prepared, minorFaultsPerFrame: stats.minorFaultsPerFrame,
            idle: measure.idleMeasurement.map { $0.result(at: clock.now, bytesWritten: terminal.bytesWritten) }, quietWaits: scheduler.quietWaits,
            filterLatency: Self.percentiles(stats.filterLatencies),
            settle: Self.percentiles(stats.settleTimes), interruptedRests: stats.interruptedRests,
            interruptedRestsWaiting: stats.interruptedRestsWaiting,
            network: sources.feed.map { NetworkReport(feed: $0, shownImages: stats.shownImages, photoRetries: figures.photoRetries) },
            outbox: sources.personal?.outbox != nil ? sources.personal?.tally : nil,
            terminalBusyFrames: stats.terminalBusyFrames)
    }
}

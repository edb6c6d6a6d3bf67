import CoreKit
import FeedClient
import ImagePipeline

/// The report's `network` figures of a feed run: what went over the wire, counted by the
/// client (the server counts its side too: `destinations-feed`'s `/_feed/stats`).
struct NetworkReport {
    var requests: Int
    var bytes: Int
    var pages: Int
    var transfers: Int
    var coalesced: Int
    var cancelledBeforeStart: Int
    var cancelledInFlight: Int
    var bytesAfterCancel: Int
    var failedTransfers: Int
    var skippedStatuses: Int
    var pageLatency: (p50: Double, p95: Double)?

    init(feed: FeedSession, loads: AssetLoadCounters) {
        let photos = feed.photos.counters
        requests = feed.fetcher.requestCount
        bytes = feed.fetcher.bytesReceived
        pages = feed.pager.pages
        transfers = photos.transfers
        coalesced = photos.coalesced
        cancelledBeforeStart = loads.skipped
        cancelledInFlight = photos.cancelledInFlight
        bytesAfterCancel = photos.bytesAfterCancel
        failedTransfers = photos.failed
        skippedStatuses = feed.skippedStatuses
        pageLatency = feed.pageLatencyPercentiles.map { ($0.p50.milliseconds, $0.p95.milliseconds) }
    }

    /// Figures the loading pipeline does not measure yet are null, not zero.
    func json() -> String {
        let latency = pageLatency.map { "{\"p50\":\(fixed($0.p50, 1)),\"p95\":\(fixed($0.p95, 1))}" } ?? "null"
        return "{\"requests\":\(requests),\"bytes\":\(bytes),\"pages\":\(pages),\"transfers\":\(transfers),\"coalesced\":\(coalesced),"
            + "\"cancelled_before_start\":\(cancelledBeforeStart),\"cancelled_in_flight\":\(cancelledInFlight),\"bytes_after_cancel\":\(bytesAfterCancel),"
            + "\"failed_transfers\":\(failedTransfers),\"promoted\":null,\"time_to_image_ms\":null,\"page_latency_ms\":\(latency),"
            + "\"image_bytes_never_shown\":null,\"skipped_statuses\":\(skippedStatuses)}"
    }

    var text: String {
        "network: \(requests) requests, \(bytes >> 10) KiB, \(pages) pages (\(skippedStatuses) statuses without a photo), \(transfers) photo transfers, "
            + "\(coalesced) coalesced, \(cancelledBeforeStart) cancelled before start, \(cancelledInFlight) in flight (\(bytesAfterCancel) bytes after the cancel)"
            + (pageLatency.map { ", page latency p50 \(fixed($0.p50, 1)) ms, p95 \(fixed($0.p95, 1)) ms" } ?? "") + "\n"
    }
}

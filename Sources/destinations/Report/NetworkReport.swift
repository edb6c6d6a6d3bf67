import CoreKit
import FeedClient
import ImagePipeline

/// The report's `network` figures of a feed run: what went over the wire, counted by the
/// client (the server counts its side too: `destinations-feed`'s `/_feed/stats`).
struct NetworkReport {
    var requests: Int
    var bytes: Int
    /// Transfers continued with a range after a dropped connection.
    var resumed: Int
    var pages: Int
    var transfers: Int
    /// Of those, read from a fresh kept copy: no request, no start from the rate limit.
    var keptCopies: Int
    var coalesced: Int
    var cancelledBeforeStart: Int
    var cancelledInFlight: Int
    var bytesAfterCancel: Int
    var failedTransfers: Int
    /// Photos whose fetch was interrupted (5xx, timeout, unresumable drop), asked for again
    /// after their backoff (``AssetStore/retries``).
    var photoRetries: Int
    var keptNearlyDone: Int
    var promoted: Int
    var skippedStatuses: Int
    /// Statuses the person's own filters hide (`filter_action: "hide"`).
    var filteredStatuses: Int
    var pageLatency: (p50: Double, p95: Double)?
    var timeToImage: (p50: Double, p95: Double)?
    /// From a cell on screen wanting a photo to its image (``NetworkLoadCounters/visibleTimeToImage``).
    var visibleTimeToImage: (p50: Double, p95: Double)?
    var queueWait: (p50: Double, p95: Double)?
    var transferTime: (p50: Double, p95: Double)?
    var prepareTime: (p50: Double, p95: Double)?
    /// Image bytes received for photos no visible cell or detail view ever showed.
    var imageBytesNeverShown: Int
    /// Image bytes received in all (`bytes` counts the pages too).
    var imageBytes: Int

    /// `shownImages`: the URLs a visible cell or the detail view showed prepared.
    init(feed: FeedSession, shownImages: Set<String>, photoRetries: Int) {
        let photos = feed.loader?.networkCounters ?? NetworkLoadCounters()
        requests = feed.fetcher.requestCount
        bytes = feed.fetcher.bytesReceived
        resumed = feed.fetcher.resumeCount
        pages = feed.pager.pages
        transfers = photos.transfers
        keptCopies = photos.keptCopies
        coalesced = photos.coalesced
        cancelledBeforeStart = photos.cancelledBeforeStart
        cancelledInFlight = photos.cancelledInFlight
        bytesAfterCancel = photos.bytesAfterCancel
        failedTransfers = photos.failed
        self.photoRetries = photoRetries
        keptNearlyDone = photos.keptNearlyDone
        promoted = photos.promoted
        skippedStatuses = feed.skipped.statuses
        filteredStatuses = feed.skipped.filtered
        pageLatency = Self.percentiles(feed.pageLatencies)
        timeToImage = Self.percentiles(photos.timeToImage)
        visibleTimeToImage = Self.percentiles(photos.visibleTimeToImage)
        queueWait = Self.percentiles(photos.queueWait)
        transferTime = Self.percentiles(photos.transferTime)
        prepareTime = Self.percentiles(photos.prepareTime)
        imageBytes = photos.bytes
        imageBytesNeverShown = photos.bytesNeverShown(shown: shownImages)
    }

    /// Median and 95th percentile (the report's nearest rank), nil for none.
    static func percentiles(_ values: [Double]) -> (p50: Double, p95: Double)? {
        GridLoop.percentiles(values).map { ($0.p50, $0.p95) }
    }

    func json() -> String {
        func percentiles(_ pair: (p50: Double, p95: Double)?) -> String {
            guard let pair else { return "null" }
            return "{\"p50\":\(fixed(pair.p50, 1)),\"p95\":\(fixed(pair.p95, 1))}"
        }
        let fields: [(String, String)] = [
            ("requests", "\(requests)"), ("bytes", "\(bytes)"), ("pages", "\(pages)"), ("transfers", "\(transfers)"), ("kept_copies", "\(keptCopies)"),
            ("coalesced", "\(coalesced)"), ("cancelled_before_start", "\(cancelledBeforeStart)"), ("cancelled_in_flight", "\(cancelledInFlight)"),
            ("bytes_after_cancel", "\(bytesAfterCancel)"), ("resumed", "\(resumed)"), ("failed_transfers", "\(failedTransfers)"), ("photo_retries", "\(photoRetries)"), ("kept_nearly_done", "\(keptNearlyDone)"),
            ("promoted", "\(promoted)"), ("time_to_image_ms", percentiles(timeToImage)),
            ("visible_time_to_image_ms", percentiles(visibleTimeToImage)),
            ("queue_wait_ms", percentiles(queueWait)), ("transfer_ms", percentiles(transferTime)), ("prepare_ms", percentiles(prepareTime)), ("page_latency_ms", percentiles(pageLatency)),
            ("image_bytes", "\(imageBytes)"), ("image_bytes_never_shown", "\(imageBytesNeverShown)"),
            ("skipped_statuses", "\(skippedStatuses)"),
            ("filtered_statuses", "\(filteredStatuses)"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    var text: String {
        "network: \(requests) requests, \(bytes >> 10) KiB, \(pages) pages (\(skippedStatuses) statuses without a picture, \(filteredStatuses) filtered out), \(transfers) photo transfers (\(keptCopies) from kept copies), "
            + "\(coalesced) coalesced, \(promoted) promoted, \(cancelledBeforeStart) cancelled before start, \(cancelledInFlight) in flight (\(bytesAfterCancel) bytes after the cancel), \(resumed) resumed, \(failedTransfers) failed (\(photoRetries) asked again)"
            + ", \(imageBytesNeverShown >> 10) of \(imageBytes >> 10) KiB of photos never shown"
            + (timeToImage.map { ", time to image p50 \(fixed($0.p50, 1)) ms, p95 \(fixed($0.p95, 1)) ms" } ?? "")
            + (pageLatency.map { ", page latency p50 \(fixed($0.p50, 1)) ms, p95 \(fixed($0.p95, 1)) ms" } ?? "") + "\n"
    }
}

import CoreKit
import Foundation
import ImagePipeline

/// Photos over HTTP for the image pipeline's transfer workers: an asset's path is its URL;
/// ``fetch(_:request:cancellation:)`` downloads it into a folder of this run and returns the
/// file, which the decoding workers read as they read any photo.
///
/// One transfer per URL at a time: a second request for a URL under way (the same photo in
/// two posts, a prefetch and then the cell, the detail view) waits for the first instead of
/// starting another. A transfer is cancelled when the last request waiting for it is, unless
/// it has received ``keepWhenReceived`` of its body (finishing costs less than asking again).
public final class HTTPPhotoSource: AssetSource {
    public struct Counters: Sendable, Hashable {
        public var transfers = 0
        public var coalesced = 0
        public var cancelledInFlight = 0
        public var bytes = 0
        public var bytesAfterCancel = 0
        public var failed = 0
        public var fromFolder = 0
    }

    /// A transfer that has this share of its body keeps going when nobody waits any more.
    public static let keepWhenReceived = 0.75
    /// The largest photo read (a 2 GB body is refused at this size, not read).
    public static let photoLimit = 64 << 20
    public static let photoDeadline: Duration = .seconds(60)

    let fetcher: HTTPFetcher
    public let folder: URL
    private let tally = Lock(Counters())
    private let inFlight = Lock<[String: Transfer]>([:])

    /// A transfer and who waits for it.
    final class Transfer: Sendable {
        struct State: Sendable {
            var result: Result<String, ImageError>?
            var waiting = 0
            var received = 0
            var expected: Int?
            var cancelled = false
            var task: Task<Void, Never>?
        }
        let state = Lock(State())
    }

    /// Downloads go to `folder` (created; the caller removes it at the end).
    public init(fetcher: HTTPFetcher, folder: URL) {
        self.fetcher = fetcher
        self.folder = folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    public var counters: Counters { tally.withLock { $0 } }

    /// The file a URL's body is kept in.
    func file(for url: String) -> String {
        let hash = url.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return folder.appendingPathComponent(String(hash, radix: 16) + ".photo").path
    }

    public func fetch(_ asset: AssetID, request: Int, cancellation: Cancellable) throws(ImageError) -> String? {
        let url = asset.path
        let path = file(for: url)
        if FileManager.default.fileExists(atPath: path) {
            tally.withLock { $0.fromFolder += 1 }
            return path
        }
        let (transfer, started) = inFlight.withLock { table -> (Transfer, Bool) in
            if let running = table[url] {
                running.state.withLock { $0.waiting += 1 }
                return (running, false)
            }
            let transfer = Transfer()
            transfer.state.withLock { $0.waiting = 1 }
            table[url] = transfer
            return (transfer, true)
        }
        if started { start(transfer, url: url, path: path) } else { tally.withLock { $0.coalesced += 1 } }
        // Waits in short slices so that a cancel is seen within 5 ms (the pool's threads
        // are ours, not the event loop's).
        while true {
            if let result = transfer.state.withLock({ $0.result }) { return try result.get() }
            if cancellation.isCancelled {
                leave(transfer, url: url)
                return nil
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    private func start(_ transfer: Transfer, url: String, path: String) {
        tally.withLock { $0.transfers += 1 }
        let task = Task.detached(priority: .low) { [self] in
            let result: Result<String, ImageError>
            do throws(FetchError) {
                let body = try await fetcher.fetch(url, limit: Self.photoLimit, deadline: Self.photoDeadline) { [tally] bytes, declared in
                    let afterCancel = transfer.state.withLock { state in
                        state.received += bytes
                        state.expected = declared
                        return state.cancelled
                    }
                    tally.withLock {
                        $0.bytes += bytes
                        if afterCancel { $0.bytesAfterCancel += bytes }
                    }
                }
                result = Self.store(body.bytes, at: path, url: url)
            } catch {
                if case .cancelled = error { result = .failure(.unreadable(path: url, reason: "cancelled")) } else {
                    tally.withLock { $0.failed += 1 }
                    result = .failure(.unreadable(path: url, reason: error.description))
                }
            }
            transfer.state.withLock { $0.result = result }
            inFlight.withLock { table in if table[url] === transfer { table[url] = nil } }
        }
        transfer.state.withLock { $0.task = task }
    }

    /// A waiter gives up; the last one cancels the transfer unless it is nearly done.
    private func leave(_ transfer: Transfer, url: String) {
        let cancel = transfer.state.withLock { state -> Task<Void, Never>? in
            state.waiting -= 1
            guard state.waiting == 0, state.result == nil else { return nil }
            if let expected = state.expected, expected > 0, Double(state.received) >= Self.keepWhenReceived * Double(expected) { return nil }
            state.cancelled = true
            return state.task
        }
        guard let cancel else { return }
        inFlight.withLock { table in if table[url] === transfer { table[url] = nil } }
        tally.withLock { $0.cancelledInFlight += 1 }
        cancel.cancel()
    }

    /// Writes `bytes` whole under another name and renames it into place: a reader never
    /// sees half a photo.
    static func store(_ bytes: [UInt8], at path: String, url: String) -> Result<String, ImageError> {
        guard !bytes.isEmpty else { return .failure(.empty(path: url)) }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            return .success(path)
        } catch {
            return .failure(.unreadable(path: url, reason: "cannot keep the download: \(error.localizedDescription)"))
        }
    }
}

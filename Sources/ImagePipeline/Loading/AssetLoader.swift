import CoreKit
import Synchronization

/// The background half over threads: a transfer pool that waits on the source, and a
/// decoding pool that prepares, both at the workers' priority. Sendable; owned by an
/// ``AssetStore``.
public final class AssetLoader: AssetLoading, Sendable {
    /// What it did so far (``AssetLoadCounters``).
    public typealias Counters = AssetLoadCounters

    public let inbox: Mailbox<AssetCompletion>
    private let source: any AssetSource
    private let transfers: WorkerPool<Void>
    private let pool: WorkerPool<ImagePreparer>
    private let tally = LoadTally()

    /// Transfers in flight at once. Waiting on the network costs no CPU, so a slow
    /// transfer must not hold a decoding worker: with one stage, two workers and 80 ms of
    /// latency, at most 25 images a second arrived however fast decoding was.
    public static let defaultTransfers = 16

    /// Decoding threads: one per core (DECISIONS.md, D-019, for 1 against 2 on 2 cores).
    public static var defaultWorkers: Int { Platform.activeProcessorCount }

    init(source: any AssetSource, workers: Int, priority: WorkerPriority, transfers: Int, wake: WakeSignal?, colorMode: CellColorMode,
         thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols) {
        self.source = source
        inbox = Mailbox(wake: wake)
        // Transfers wait on the network and take no CPU; they run at the workers' priority.
        self.transfers = WorkerPool(workers: transfers, name: "image transfer", priority: priority.forWaitingThreads) { () }
        pool = WorkerPool(workers: workers, name: "image worker", priority: priority) { ImagePreparer(colorMode: colorMode, thumbnails: thumbnails, output: output) }
    }

    deinit {
        transfers.stop()
        pool.stop()
    }

    /// Read without a lock: the frame loop shows these every frame.
    public var counters: Counters { tally.snapshot }

    public func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) -> Bool {
        transfers.trySubmit(priority: priority) { [self] _ in
            if cancellation.isCancelled {
                tally.skipped.add(1, ordering: .relaxed)
                return
            }
            let path: String
            do throws(ImageError) {
                guard let fetched = try source.fetch(key.asset, request: request, cancellation: cancellation) else {
                    tally.abandoned.add(1, ordering: .relaxed)
                    return
                }
                path = fetched
            } catch {
                fail(request: request, key: key, error: error)
                return
            }
            pool.submit(priority: priority) { [self] preparer in
                prepare(key, from: path, request: request, cancellation: cancellation, with: preparer)
            }
        }
    }

    private func prepare(_ key: PreparedImageKey, from path: String, request: Int, cancellation: Cancellable, with preparer: ImagePreparer) {
        if cancellation.isCancelled {
            tally.abandoned.add(1, ordering: .relaxed)
            return
        }
        do throws(ImageError) {
            let image = try preparer.prepare(AssetID(path: path, window: key.asset.window), columns: key.columns, rows: key.rows)
            tally.prepared.add(1, ordering: .relaxed)
            // Posted even when cancelled meanwhile: the store caches it (D-011), unshown.
            if cancellation.isCancelled { tally.dropped.add(1, ordering: .relaxed) }
            inbox.post(AssetCompletion(request: request, key: key, result: .success(image)))
        } catch {
            fail(request: request, key: key, error: error)
        }
    }

    private func fail(request: Int, key: PreparedImageKey, error: ImageError) {
        tally.failed.add(1, ordering: .relaxed)
        inbox.post(AssetCompletion(request: request, key: key, result: .failure(error)))
    }
}

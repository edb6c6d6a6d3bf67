import CoreKit
import Foundation

/// What the store shows for an item right now.
public enum Asset: Sendable {
    case prepared(CellImage)
    case placeholder(CellImage)
    /// Preparation failed: a placeholder, and why (the app draws an error mark).
    case failed(CellImage, ImageError)

    public var isPlaceholder: Bool {
        if case .prepared = self { return false }
        return true
    }

    public var image: CellImage {
        switch self {
        case .prepared(let image), .placeholder(let image), .failed(let image, _): image
        }
    }
}

/// A finished request, posted by a worker, delivered on the main thread.
public struct AssetCompletion: Sendable {
    public let request: Int
    public let key: PreparedImageKey
    public let result: Result<CellImage, ImageError>
}

/// The seeds' asset store, for the main thread.
///
/// `asset(for:)` always answers at once: the prepared image if it is cached, else a
/// placeholder (never a decode). `download` checks the cache, else fetches from the
/// source, prepares off the main thread on a bounded worker pool (nearest the viewport
/// first), caches, and posts the completion to the store's mailbox; the frame's drain step
/// calls ``deliverCompletions()``, which runs each completion on the main thread unless
/// its request was cancelled. Completions are closures over UI state, so they never leave
/// the main thread: workers only see Sendable values.
public final class AssetStore {
    public let cache: PreparedImageCache
    public let colorMode: CellColorMode
    public let placeholders: PlaceholderCatalog
    let loader: any AssetLoading
    private var pending: [Int: (completion: (Result<CellImage, ImageError>) -> Void, cancellable: Cancellable)] = [:]
    private var failures: [PreparedImageKey: ImageError] = [:]
    private var nextRequest = 0
    /// Completions drained from the mailbox and not yet delivered (over a frame's limit).
    private var backlog: [AssetCompletion] = []

    public convenience init(source: any AssetSource = SimulatedNetworkSource(), cacheLimit: Int = 64 << 20,
                workers: Int = AssetLoader.defaultWorkers, priority: WorkerPriority = .recommended,
                transfers: Int = AssetLoader.defaultTransfers,
                colorMode: CellColorMode, placeholders: PlaceholderCatalog = PlaceholderCatalog()) {
        let cache = PreparedImageCache(limit: cacheLimit)
        self.init(cache: cache, loader: AssetLoader(source: source, cache: cache, workers: workers, priority: priority, transfers: transfers, colorMode: colorMode),
                  colorMode: colorMode, placeholders: placeholders)
    }

    /// A store over any background half: the worker pools, or a ``ScriptedAssetLoader``
    /// whose completions arrive at virtual times (simulations and tests). `loader` must
    /// fill `cache`.
    public init(cache: PreparedImageCache, loader: any AssetLoading, colorMode: CellColorMode, placeholders: PlaceholderCatalog = PlaceholderCatalog()) {
        self.cache = cache
        self.loader = loader
        self.colorMode = colorMode
        self.placeholders = placeholders
    }

    /// The prepared image if cached, else the placeholder (with the error, if it failed).
    /// - Complexity: O(1) for a cached image, O(cells) for a placeholder.
    public func asset(for key: PreparedImageKey) -> Asset {
        if let image = cache.image(for: key) { return .prepared(image) }
        let placeholder = placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode)
        if let error = failures[key] { return .failed(placeholder, error) }
        return .placeholder(placeholder)
    }

    /// Starts preparing `key` (lower `priority` runs sooner) and returns the handle that
    /// cancels it. `completion` runs later, on the main thread, inside ``deliverCompletions()``;
    /// never for a cancelled request.
    public func download(_ key: PreparedImageKey, priority: Int = 0,
                         completion: @escaping (Result<CellImage, ImageError>) -> Void) -> Cancellable {
        let request = nextRequest
        nextRequest += 1
        let cancellable = Cancellable()
        pending[request] = (completion, cancellable)
        loader.load(key, request: request, priority: priority, cancellation: cancellable)
        return cancellable
    }

    /// Runs the completions that arrived since the last call, at most `limit` of them
    /// (the rest wait, in order, for the next call: each completion usually reconfigures a
    /// cell, and a frame can afford only so many); returns how many ran.
    @discardableResult
    public func deliverCompletions(limit: Int = .max) -> Int {
        var delivered = 0
        loader.postDueCompletions()
        backlog += loader.inbox.drain()
        guard !backlog.isEmpty else { return 0 }
        var taken = 0
        for completion in backlog {
            if delivered >= limit { break }
            taken += 1
            if case .failure(let error) = completion.result { failures[completion.key] = error }
            guard let request = pending.removeValue(forKey: completion.request), !request.cancellable.isCancelled else { continue }
            request.completion(completion.result)
            delivered += 1
        }
        backlog.removeFirst(taken)
        pending = pending.filter { !$0.value.cancellable.isCancelled }
        return delivered
    }

    /// Completions posted and not yet delivered.
    public var undeliveredCount: Int { loader.inbox.count + backlog.count }

    /// Requests neither delivered nor cancelled.
    public var pendingCount: Int { pending.values.count { !$0.cancellable.isCancelled } }

    public var counters: AssetLoadCounters { loader.counters }
}

/// What a loader did so far.
public struct AssetLoadCounters: Sendable, Hashable {
    /// Preparations that ran (decode + convert).
    public var prepared = 0
    /// Requests cancelled before any work started.
    public var skipped = 0
    /// Requests cancelled during their transfer or before preparation began (nothing prepared).
    public var abandoned = 0
    /// Results that arrived after their request was cancelled (cached, not delivered).
    public var dropped = 0
    public var failed = 0

    public init() {}
}

/// The background half of an ``AssetStore``: fetches, prepares, caches and posts each
/// request's completion to `inbox`. Called on the store's (main) thread.
public protocol AssetLoading: AnyObject {
    var inbox: Mailbox<AssetCompletion> { get }
    var counters: AssetLoadCounters { get }
    func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable)
    /// Called before each drain of `inbox`; a loader that runs on its own threads has
    /// nothing to do here, a scripted one posts what is due by now.
    func postDueCompletions()
}

extension AssetLoading {
    public func postDueCompletions() {}
}

/// The background half: fetch, prepare, cache, post. Sendable; owned by an AssetStore.
public final class AssetLoader: AssetLoading, Sendable {
    public typealias Counters = AssetLoadCounters

    public let inbox = Mailbox<AssetCompletion>()
    private let source: any AssetSource
    private let cache: PreparedImageCache
    private let transfers: WorkerPool<Void>
    private let pool: WorkerPool<ImagePreparer>
    private let tally = Lock(Counters())

    /// Transfers in flight at once. Waiting on the network costs no CPU, so a slow
    /// transfer must not hold a decoding worker: with one stage, two workers and 80 ms of
    /// latency, at most 25 images a second arrived however fast decoding was.
    public static let defaultTransfers = 16

    /// Decoding threads: one per core (see DECISIONS.md, D-019, for 1 against 2 on 2 cores).
    public static var defaultWorkers: Int { ProcessInfo.processInfo.activeProcessorCount }

    init(source: any AssetSource, cache: PreparedImageCache, workers: Int, priority: WorkerPriority, transfers: Int, colorMode: CellColorMode) {
        self.source = source
        self.cache = cache
        // Transfers wait on the network and take no CPU; they run at the workers' priority too.
        self.transfers = WorkerPool(workers: transfers, name: "image transfer", priority: priority) { () }
        pool = WorkerPool(workers: workers, name: "image worker", priority: priority) { ImagePreparer(colorMode: colorMode) }
    }

    deinit {
        transfers.stop()
        pool.stop()
    }

    public var counters: Counters { tally.withLock { $0 } }

    public func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) {
        if let image = cache.image(for: key) {
            inbox.post(AssetCompletion(request: request, key: key, result: .success(image)))
            return
        }
        transfers.submit(priority: priority) { [self] _ in
            if cancellation.isCancelled {
                tally.withLock { $0.skipped += 1 }
                return
            }
            let path: String
            do throws(ImageError) {
                guard let fetched = try source.fetch(key.asset, request: request, cancellation: cancellation) else {
                    tally.withLock { $0.abandoned += 1 }
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
            tally.withLock { $0.abandoned += 1 }
            return
        }
        do throws(ImageError) {
            let image = try preparer.prepare(AssetID(path: path, window: key.asset.window), columns: key.columns, rows: key.rows)
            cache.insert(image, for: key)
            tally.withLock { $0.prepared += 1 }
            if cancellation.isCancelled {
                tally.withLock { $0.dropped += 1 }
                return
            }
            inbox.post(AssetCompletion(request: request, key: key, result: .success(image)))
        } catch {
            fail(request: request, key: key, error: error)
        }
    }

    private func fail(request: Int, key: PreparedImageKey, error: ImageError) {
        tally.withLock { $0.failed += 1 }
        inbox.post(AssetCompletion(request: request, key: key, result: .failure(error)))
    }
}

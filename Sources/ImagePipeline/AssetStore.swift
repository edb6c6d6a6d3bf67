import CellCanvas
import CoreKit

/// What the store shows for an item right now.
public enum Asset: Sendable {
    /// The image, prepared for the size asked.
    case prepared(CellImage)
    /// A stand-in drawn at once (the photo's average colours, or its BlurHash), until the image arrives.
    case placeholder(CellImage)
    /// Preparation failed: a placeholder, and why (the app draws an error mark).
    case failed(CellImage, ImageError)

    /// Not the prepared image: a placeholder, or a failure's placeholder.
    public var isPlaceholder: Bool {
        if case .prepared = self { return false }
        return true
    }

    /// What to draw: the image or its placeholder.
    public var image: CellImage {
        switch self {
        case .prepared(let image), .placeholder(let image), .failed(let image, _): image
        }
    }
}

/// A finished request, posted by a worker, delivered on the main thread.
public struct AssetCompletion: Sendable {
    /// The store's number for the request.
    public let request: Int
    /// What was asked for.
    public let key: PreparedImageKey
    /// The prepared image, or why there is none.
    public let result: Result<CellImage, ImageError>
}

/// The seeds' asset store, for the main thread.
///
/// `asset(for:)` always answers at once: the prepared image if it is cached, else a
/// placeholder (never a decode). `download` checks the cache, else hands the request to
/// its loader, which fetches and prepares off the main thread (nearest the viewport first)
/// and posts the result to a mailbox; the frame's drain step calls `deliverCompletions(limit:)`,
/// which caches each result and runs its completion on the main thread unless the request
/// was cancelled. Completions are closures over UI state, so they never leave the main
/// thread: workers only see Sendable values.
///
/// The main thread never waits for a lock a worker holds: the cache is the main thread's
/// alone (workers hand images over, they do not insert), and the mailbox and the job queue
/// are entered with a try-lock, so a worker preempted mid-post (at low priority, under
/// load) delays a delivery by a frame instead of stalling the frame (DECISIONS.md, D-019).
public final class AssetStore {
    let cache: PreparedImageCache
    let colorMode: CellColorMode
    private(set) var placeholders: PlaceholderCatalog
    /// The main thread's own preparer, for ``prepareOnThisThread(_:)`` only.
    /// Symbols always: `--images sync` prepares anew at every configuration, uncached, so
    /// kitty images made there would pile up in the terminal.
    /// The main thread's (`--images sync`): it never waits for the workers' decode budget.
    private lazy var preparerHere = ImagePreparer(colorMode: colorMode, thumbnails: thumbnails, budget: nil)
    /// Symbol mosaics, kitty images (whose transmissions and deletions this store queues
    /// for the terminal: ``takeTerminalOutput(keeping:)``), or pictures the presenter draws
    /// from strips (handed over and forgotten through ``takePixelImageChanges(keeping:)``).
    public let output: ImageOutput
    /// Escape sequences for the terminal that are not cells, in order (kitty transmissions
    /// of images about to be shown, deletions of images that left the cache).
    private var terminalOutput: [UInt8] = []
    /// Image transmissions a second, at most (16 MiB: 128 KiB a frame at 120 Hz, 256 KiB at
    /// 60); a frame's share is passed to ``deliverCompletions(limit:transmissionBytes:)``.
    public static let transmissionBytesPerSecond = 16 << 20
    /// The desktop's thumbnail cache the preparers read and fill, if any (`--photos`).
    public let thumbnails: ThumbnailCache?
    let loader: any AssetLoading
    private var pending: [Int: (completion: (Result<CellImage, ImageError>) -> Void, cancellable: Cancellable)] = [:]
    private var failures: [PreparedImageKey: ImageError] = [:]
    /// When the failures that may pass (``ImageError/isTransient``) are forgotten.
    private var interrupted: InterruptedRetries
    /// Interrupted failures forgotten so far, to be asked for again.
    public private(set) var retries = 0
    private var nextRequest = 0
    /// Requests made with ``downloadOnce(_:priority:completion:)``, by key, until delivered
    /// or cancelled: the one record of what is under way (callers keep no list of their own).
    private var onceByKey: [PreparedImageKey: Cancellable] = [:]
    /// Completions taken from the loader and not yet delivered (over a frame's limit, or
    /// answered from the cache at once and due at the next delivery).
    private var backlog: [AssetCompletion] = []
    /// Requests cancelled while they waited to be handed over (never reached the loader).
    private var skippedBeforeHandOver = 0
    /// Requests the loader could not take at once (its queue was busy), oldest first;
    /// handed over at the next ``deliverCompletions(limit:)`` (the frame loop calls it
    /// every frame, and does not go quiet while any wait).
    private var unsubmitted: [(key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable)] = []

    /// A store whose images come from `source` through worker pools at `priority` (`workers`
    /// decoding, `transfers` fetching), cached up to `cacheLimit` bytes, converted for
    /// `colorMode` and drawn as `output`; `wake` ends the frame loop's quiet sleep when one is ready.
    public convenience init(source: any AssetSource = SimulatedNetworkSource(), cacheLimit: Int = 64 << 20,
                            workers: Int = AssetLoader.defaultWorkers, priority: WorkerPriority = .recommended,
                            transfers: Int = AssetLoader.defaultTransfers, wake: WakeSignal? = nil,
                            colorMode: CellColorMode, placeholders: PlaceholderCatalog = PlaceholderCatalog(),
                            thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols) {
        self.init(cache: PreparedImageCache(limit: cacheLimit),
                  loader: AssetLoader(source: source, workers: workers, priority: priority, transfers: transfers, wake: wake,
                                      colorMode: colorMode, thumbnails: thumbnails, output: output),
                  colorMode: colorMode, placeholders: placeholders, thumbnails: thumbnails, output: output)
    }

    /// A store over any background half: the worker pools, or a ``ScriptedAssetLoader``
    /// whose completions arrive at virtual times (simulations and tests).
    /// `retries`: when an interrupted photo is asked for again (exact by default, for the
    /// virtual clock; a store over a real network passes `RetryPolicy.photos` (CoreKit), jittered).
    public init(cache: PreparedImageCache, loader: any AssetLoading, colorMode: CellColorMode, placeholders: PlaceholderCatalog = PlaceholderCatalog(),
                thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols, retries: RetryPolicy = AssetStore.exactRetries) {
        interrupted = InterruptedRetries(policy: retries)
        self.thumbnails = thumbnails
        self.output = output
        self.cache = cache
        self.loader = loader
        self.colorMode = colorMode
        self.placeholders = placeholders
    }

    /// Adds placeholder colours for a remote photo (a feed's BlurHash, decoded off the main
    /// thread); cells still showing the neutral placeholder get them at their next configuration.
    public func addPlaceholder(columns: Int, rows: Int, rgb: [UInt32], forURL url: String) {
        placeholders.add(columns: columns, rows: rows, rgb: rgb, forURL: url)
    }

    /// The prepared image if cached, else the placeholder (with the error, if it failed).
    /// - Complexity: O(1) for a cached image, O(cells) for a placeholder.
    public func asset(for key: PreparedImageKey) -> Asset {
        if let image = cache.image(for: key) { return .prepared(image) }
        let placeholder = placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode)
        if let error = failures[key] { return .failed(placeholder, error) }
        return .placeholder(placeholder)
    }

    /// Forgets the photos that were unavailable offline (``ImageError/unavailable(path:reason:)``),
    /// so that cells ask for them again: the network is back. Returns how many.
    @discardableResult
    public func forgetUnavailable() -> Int {
        let gone = failures.filter { if case .unavailable = $0.value { true } else { false } }
        for key in gone.keys { failures[key] = nil }
        return gone.count
    }

    /// Whether the workers decoded since the last ``takeMemoryToReturn()``: their arenas
    /// hold what each decode freed until it is trimmed.
    private var workedSinceMemoryReturn = false

    /// True once after the workers delivered anything: the caller, going quiet, gives their
    /// freed memory back (CoreKit's `MemoryReturn`). A decode of 96 MB freed on a worker stays
    /// resident in its arena otherwise (issue 43: the soak's settled RSS moved with it while
    /// the memory in use did not).
    public func takeMemoryToReturn() -> Bool {
        defer { workedSinceMemoryReturn = false }
        return workedSinceMemoryReturn
    }

    /// `RetryPolicy.photos` (CoreKit) without jitter: 2, 4, 8 … 60 s exactly (the default, for the
    /// virtual clock).
    public static let exactRetries = RetryPolicy(first: .seconds(2), cap: .seconds(60), jitter: 0)

    /// The wait before an interrupted photo is asked for again, after `failures` in a row:
    /// 2 s, doubled each time, at most a minute (a server that keeps failing costs one
    /// request a minute per photo someone looks at).
    public static func retryDelay(afterFailures failures: Int) -> Duration {
        exactRetries.ceiling(afterFailures: failures)
    }

    /// Forgets the interrupted failures (``ImageError/interrupted(path:reason:)``) whose
    /// backoff is over by `now`, so that cells ask for them again, and returns their keys
    /// (the caller reconfigures the items that show them). A failure's backoff counts from
    /// the first call after it was delivered: call this every frame (it is O(1) while
    /// nothing is due).
    public func retryInterrupted(now: Duration) -> [PreparedImageKey] {
        let due = interrupted.due(now: now).filter { failures[$0]?.isTransient == true }
        for key in due { failures[key] = nil }
        retries += due.count
        return due
    }

    /// Decodes at full size and prepares `key` on the calling thread, now: the seeds' wrong
    /// way (`--images sync`), kept to show what it costs a frame. Not cached.
    public func prepareOnThisThread(_ key: PreparedImageKey) -> Asset {
        do {
            return .prepared(try preparerHere.prepare(key.asset, columns: key.columns, rows: key.rows, fullSize: true))
        } catch {
            return .failed(placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode), error)
        }
    }

    /// Caches `image`; kitty images and strip pictures that leave the cache are deleted from
    /// the terminal or the presenter too, so neither holds more images than the cache does.
    private func cacheAndDeleteEvicted(_ image: CellImage, for key: PreparedImageKey) {
        for gone in cache.insert(image, for: key) {
            if let id = gone.graphicID { imagesToDelete.insert(id) }
        }
    }

    /// Images (kitty, or strip pictures) that left the cache, to be deleted once no cell
    /// shows them (a cell keeps its image after the cache let it go).
    private var imagesToDelete = Set<UInt32>()

    /// Pictures the presenter draws (sixel, iTerm2, 24-bit symbols) delivered since the last
    /// ``takePixelImageChanges(keeping:)``, for it to keep until they leave the cache.
    private var pixelImagesDefined: [PixelImage] = []

    /// The pictures delivered since the last call (the presenter keeps them to draw their
    /// cells), and the ids of those that left the cache and are not in `shown` (the
    /// presenter forgets them; the others wait, as kitty deletions do).
    public func takePixelImageChanges(keeping shown: Set<UInt32> = []) -> (defined: [PixelImage], forgotten: [UInt32]) {
        var forgotten: [UInt32] = []
        if output.drawsPixelCells, !imagesToDelete.isEmpty {
            for id in imagesToDelete where !shown.contains(id) { forgotten.append(id) }
            imagesToDelete.subtract(forgotten)
            // Placed kitty images leave the terminal too, once the presenter has forgotten them
            // (with the next terminal output).
            if case .kittyPlacement = output { for id in forgotten { terminalOutput += KittyGraphics.deletion(id: id) } }
        }
        defer { pixelImagesDefined.removeAll(keepingCapacity: true) }
        return (pixelImagesDefined, forgotten)
    }

    /// The escape sequences for the terminal since the last call: kitty image
    /// transmissions, then deletions of the images that left the cache and are not in
    /// `shown` (the ids the cells still show; theirs wait). The frame writes them before
    /// its cells.
    public func takeTerminalOutput(keeping shown: Set<UInt32> = []) -> [UInt8] {
        if case .kitty(_, let throughTmux) = output, !imagesToDelete.isEmpty {
            for id in imagesToDelete where !shown.contains(id) {
                terminalOutput += KittyGraphics.deletion(id: id, throughTmux: throughTmux)
                imagesToDelete.remove(id)
            }
        }
        defer { terminalOutput.removeAll(keepingCapacity: true) }
        return terminalOutput
    }

    /// What the cache holds and did so far, and its limit in bytes.
    public var cacheCounters: PreparedImageCache.Counters { cache.counters }
    /// The cache's limit in bytes.
    public var cacheLimit: Int { cache.limit }

    /// Starts preparing `key` (lower `priority` runs sooner) and returns the handle that
    /// cancels it. `completion` runs later, on the main thread, inside
    /// `deliverCompletions(limit:)`; never synchronously, never for a cancelled request.
    public func download(_ key: PreparedImageKey, priority: Int = 0,
                         completion: @escaping (Result<CellImage, ImageError>) -> Void) -> Cancellable {
        let request = nextRequest
        nextRequest += 1
        let cancellable = Cancellable(priority: priority)
        pending[request] = (completion, cancellable)
        if let image = cache.image(for: key) {
            backlog.append(AssetCompletion(request: request, key: key, result: .success(image)))
        } else {
            unsubmitted.append((key, request, priority, cancellable))
            submitWaitingRequests()
        }
        return cancellable
    }

    /// Starts preparing `key` unless a request made this way is already under way for it
    /// (then only its priority is set to `priority`: a prefetch whose cell became visible is
    /// promoted, where the loader can reorder; and returns false). The request ends when it
    /// is delivered or ``cancelDownload(of:)`` cancels it.
    @discardableResult
    public func downloadOnce(_ key: PreparedImageKey, priority: Int = 0,
                             completion: @escaping (Result<CellImage, ImageError>) -> Void) -> Bool {
        if let running = onceByKey[key] {
            running.priority = priority
            return false
        }
        onceByKey[key] = download(key, priority: priority) { [weak self] result in
            self?.onceByKey[key] = nil
            completion(result)
        }
        return true
    }

    /// Cancels the ``downloadOnce(_:priority:completion:)`` request for `key`, if any.
    public func cancelDownload(of key: PreparedImageKey) {
        onceByKey.removeValue(forKey: key)?.cancel()
    }

    /// Hands waiting requests to the loader, in order, until it is busy.
    private func submitWaitingRequests() {
        var handed = 0
        for waiting in unsubmitted {
            if waiting.cancellation.isCancelled {
                skippedBeforeHandOver += 1
                handed += 1
                continue
            }
            guard loader.load(waiting.key, request: waiting.request, priority: waiting.priority, cancellation: waiting.cancellation) else { break }
            handed += 1
        }
        unsubmitted.removeFirst(handed)
    }

    /// Runs the completions that arrived since the last call, at most `limit` of them
    /// (the rest wait, in order, for the next call: each completion usually reconfigures a
    /// cell, and a frame can afford only so many); returns how many ran. Every prepared
    /// image that arrived is cached, delivered or not.
    ///
    /// A frame sends at most `transmissionBytes` of kitty images (the first one always, unless
    /// the budget is 0: the terminal is behind);
    /// completions past that wait in the backlog, in order, for the next frames.
    @discardableResult
    public func deliverCompletions(limit: Int = .max, transmissionBytes: Int = .max) -> Int {
        transmissionsHeldBack = false
        if !unsubmitted.isEmpty { submitWaitingRequests() }
        loader.postDueCompletions()
        if let arrived = loader.inbox.drainIfAvailable(), !arrived.isEmpty {
            workedSinceMemoryReturn = true
            for completion in arrived {
                switch completion.result {
                // An image with something for the terminal (a kitty transmission, strips for
                // the presenter) is cached when that is handed over (below), not before.
                case .success(let image):
                    if !image.hasTerminalPayload { cacheAndDeleteEvicted(image, for: completion.key) }
                    interrupted.arrived(completion.key)
                case .failure(let error):
                    failures[completion.key] = error
                    if error.isTransient { interrupted.failed(completion.key) }
                }
            }
            backlog += arrived
        }
        guard !backlog.isEmpty else { return 0 }
        var delivered = 0, taken = 0, transmitted = 0
        var sawCancelled = false
        for var completion in backlog {
            if delivered >= limit { break }
            if case .success(let image) = completion.result, image.hasTerminalPayload {
                let cancelled = pending[completion.request]?.cancellable.isCancelled ?? true
                if !cancelled {
                    if (transmitted > 0 || transmissionBytes <= 0) && transmitted + image.transmission.count > transmissionBytes {
                        transmissionsHeldBack = true
                        break
                    }
                    transmitted += image.transmission.count
                    terminalOutput += image.transmission
                    if let pixels = image.pixelImage { pixelImagesDefined.append(pixels) }
                    cacheAndDeleteEvicted(image.sent, for: completion.key)
                }
                completion = AssetCompletion(request: completion.request, key: completion.key, result: .success(image.sent))
            }
            taken += 1
            guard let request = pending.removeValue(forKey: completion.request) else { continue }
            guard !request.cancellable.isCancelled else {
                sawCancelled = true
                continue
            }
            request.completion(completion.result)
            delivered += 1
        }
        backlog.removeFirst(taken)
        if sawCancelled { pending = pending.filter { !$0.value.cancellable.isCancelled } }
        return delivered
    }

    /// Right after a commit, on the main thread: the loader starts the work the commit's
    /// requests queued (``AssetLoading/startQueuedWork()``). A frame loop calls it once the
    /// frame is handed over; until then nothing woken can take the frame loop's core.
    public func startQueuedWork() {
        if !unsubmitted.isEmpty { submitWaitingRequests() }
        loader.startQueuedWork()
    }

    /// The last ``deliverCompletions(limit:transmissionBytes:)`` stopped at an image whose
    /// transmission did not fit its budget (it waits in the backlog).
    public private(set) var transmissionsHeldBack = false

    /// Completions posted and not yet delivered.
    public var undeliveredCount: Int { loader.inbox.count + backlog.count }

    /// Requests neither delivered nor cancelled.
    public var pendingCount: Int { pending.values.count { !$0.cancellable.isCancelled } }

    /// True when the next `deliverCompletions(limit:)` may have something to do (never
    /// waits for a worker): a frame loop that wants to sleep asks this first.
    public var hasWorkForMainThread: Bool {
        !backlog.isEmpty || !unsubmitted.isEmpty || interrupted.hasUnstamped || loader.inbox.mayHaveMessages || loader.hasDueCompletions
    }

    /// When a scripted loader's next completion falls due (threads wake the loop through the
    /// mailbox's `WakeSignal` instead), or an interrupted photo is to be asked for again,
    /// whichever is first.
    public var nextDueTime: Duration? {
        guard let retry = interrupted.earliest else { return loader.nextDueTime }
        return min(loader.nextDueTime ?? retry, retry)
    }

    /// Requests still waiting to be handed to the loader.
    public var unsubmittedCount: Int { unsubmitted.count }

    /// What the loader did, with the requests the store cancelled before handing them over.
    public var counters: AssetLoadCounters {
        var counters = loader.counters
        counters.skipped += skippedBeforeHandOver
        return counters
    }
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
    /// Requests whose image could not be prepared.
    public var failed = 0

    /// All zero.
    public init() {}
}

/// The background half of an ``AssetStore``: fetches and prepares, and posts each
/// request's result to `inbox` (the store caches it). Called on the store's (main) thread.
public protocol AssetLoading: AnyObject {
    /// Where finished requests are posted, for the store to drain on its thread.
    var inbox: Mailbox<AssetCompletion> { get }
    /// What the loader did so far.
    var counters: AssetLoadCounters { get }
    /// Starts a request; false when it cannot be taken without waiting (the store keeps it
    /// and tries again at the next delivery).
    func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) -> Bool
    /// Called before each drain of `inbox`, at the start of a frame: a scripted loader posts
    /// what is due by now; the network loader reads the frame's cancellations and priorities.
    /// A loader with nothing to do per frame leaves the default.
    func postDueCompletions()
    /// Called right after each commit: a loader that defers starting what ``load(_:request:priority:cancellation:)``
    /// queued (so that a frame's requests start in priority order, and no thread is woken
    /// in the middle of a commit) starts it here, and stops the work the commit did not ask
    /// for again. Default: nothing.
    func startQueuedWork()
    /// A scripted loader's next completion time (threads: nil).
    var nextDueTime: Duration? { get }
    /// The next ``postDueCompletions()`` or ``startQueuedWork()`` has something to do: a
    /// scripted loader's completions due by now, the network loader's requests waiting to
    /// start. A quiet frame loop does not sleep while it is true.
    var hasDueCompletions: Bool { get }
}

extension AssetLoading {
    public func postDueCompletions() {}
    public func startQueuedWork() {}
    public var nextDueTime: Duration? { nil }
    public var hasDueCompletions: Bool { false }
}

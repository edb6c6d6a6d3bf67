import CellCanvas
import CoreKit

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
///
/// Its state is in parts that change together: the requests, the deliveries, what waits
/// for the terminal, and the failures with their retries (each in a file of its own).
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
    /// The desktop's thumbnail cache the preparers read and fill, if any (`--photos`).
    public let thumbnails: ThumbnailCache?
    let loader: any AssetLoading
    /// The requests under way: their completions, their handles, those the loader has yet to take.
    var requests = Requests()
    /// The completions taken from the loader and waiting to run.
    var deliveries = Deliveries()
    /// Escape sequences and pictures waiting for the terminal and the presenter.
    var terminal = TerminalChanges()
    /// The photos that failed, and when the interrupted ones are asked for again.
    var failures: Failures

    /// The requests' bookkeeping, kept together because a request moves through all of it.
    struct Requests {
        /// The number the next request gets.
        var next = 0
        /// Each request's completion and handle, by number, until it is delivered or found cancelled.
        var pending: [Int: (completion: (Result<CellImage, ImageError>) -> Void, cancellable: Cancellable)] = [:]
        /// Requests made with ``AssetStore/downloadOnce(_:priority:completion:)``, by key, until delivered
        /// or cancelled: the one record of what is under way (callers keep no list of their own).
        var onceByKey: [PreparedImageKey: Cancellable] = [:]
        /// Requests the loader could not take at once (its queue was busy), oldest first;
        /// handed over at the next ``AssetStore/deliverCompletions(limit:transmissionBytes:)`` (the
        /// frame loop calls it every frame, and does not go quiet while any wait).
        var unsubmitted: [(key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable)] = []
        /// Requests cancelled while they waited to be handed over (never reached the loader).
        var skippedBeforeHandOver = 0
    }

    /// A store whose images come from `source` through an ``ImageLoader`` at `priority`
    /// (`workers` decoding, `transfers` fetching at once, no rate limit), cached up to
    /// `cacheLimit` bytes, converted for `colorMode` and drawn as `output`; `wake` ends the
    /// frame loop's quiet sleep when one is ready. A server's photos want a
    /// ``TransferPolicy`` of their own: build the loader and use ``init(cache:loader:colorMode:placeholders:thumbnails:output:retries:)``.
    public convenience init(source: any ImageSource = SimulatedNetworkSource(), cacheLimit: Int = 64 << 20,
                            workers: Int = ImageLoader.defaultWorkers, priority: WorkerPriority = .recommended,
                            transfers: Int = ImageLoader.defaultTransfers, wake: WakeSignal? = nil,
                            colorMode: CellColorMode, placeholders: PlaceholderCatalog = PlaceholderCatalog(),
                            thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols) {
        self.init(cache: PreparedImageCache(limit: cacheLimit),
                  loader: ImageLoader(source: source, policy: .local(connections: transfers), workers: workers, priority: priority, wake: wake,
                                      colorMode: colorMode, thumbnails: thumbnails, output: output),
                  colorMode: colorMode, placeholders: placeholders, thumbnails: thumbnails, output: output)
    }

    /// A store over any background half: an ``ImageLoader``, or a ``ScriptedAssetLoader``
    /// whose completions arrive at virtual times (simulations and tests).
    /// `retries`: when an interrupted photo is asked for again (exact by default, for the
    /// virtual clock; a store over a real network passes `RetryPolicy.photos` (CoreKit), jittered).
    public init(cache: PreparedImageCache, loader: any AssetLoading, colorMode: CellColorMode, placeholders: PlaceholderCatalog = PlaceholderCatalog(),
                thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols, retries: RetryPolicy = AssetStore.exactRetries) {
        failures = Failures(interrupted: InterruptedRetries(policy: retries))
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
        if let error = failures.byKey[key] { return .failed(placeholder, error) }
        return .placeholder(placeholder)
    }

    /// The placeholder of `key` even when its image is cached: what a picture hidden behind
    /// a content warning shows (its BlurHash where the feed gave one).
    /// - Complexity: O(cells).
    public func placeholder(for key: PreparedImageKey) -> CellImage {
        placeholders.placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: colorMode)
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

    /// What the cache holds and did so far, and its limit in bytes.
    public var cacheCounters: PreparedImageCache.Counters { cache.counters }
    /// The cache's limit in bytes.
    public var cacheLimit: Int { cache.limit }

    /// Starts preparing `key` (lower `priority` runs sooner) and returns the handle that
    /// cancels it. `completion` runs later, on the main thread, inside
    /// `deliverCompletions(limit:)`; never synchronously, never for a cancelled request.
    public func download(_ key: PreparedImageKey, priority: Int = 0,
                         completion: @escaping (Result<CellImage, ImageError>) -> Void) -> Cancellable {
        let request = requests.next
        requests.next += 1
        let cancellable = Cancellable(priority: priority)
        requests.pending[request] = (completion, cancellable)
        if let image = cache.image(for: key) {
            deliveries.backlog.append(AssetCompletion(request: request, key: key, result: .success(image)))
        } else {
            requests.unsubmitted.append((key, request, priority, cancellable))
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
        if let running = requests.onceByKey[key] {
            running.priority = priority
            return false
        }
        // Made before it is recorded: `download` changes `requests` too, and the two
        // accesses must not overlap.
        let started = download(key, priority: priority) { [weak self] result in
            self?.requests.onceByKey[key] = nil
            completion(result)
        }
        requests.onceByKey[key] = started
        return true
    }

    /// Cancels the ``downloadOnce(_:priority:completion:)`` request for `key`, if any.
    public func cancelDownload(of key: PreparedImageKey) {
        requests.onceByKey.removeValue(forKey: key)?.cancel()
    }

    /// Hands waiting requests to the loader, in order, until it is busy.
    func submitWaitingRequests() {
        var handed = 0
        for waiting in requests.unsubmitted {
            if waiting.cancellation.isCancelled {
                requests.skippedBeforeHandOver += 1
                handed += 1
                continue
            }
            guard loader.load(waiting.key, request: waiting.request, priority: waiting.priority, cancellation: waiting.cancellation) else { break }
            handed += 1
        }
        requests.unsubmitted.removeFirst(handed)
    }

    /// Right after a commit, on the main thread: the loader starts the work the commit's
    /// requests queued (``AssetLoading/startQueuedWork()``). A frame loop calls it once the
    /// frame is handed over; until then nothing woken can take the frame loop's core.
    /// `terminalBusy`: the terminal has not yet read or parsed everything it was sent, and
    /// the loader leaves it a core (``AssetLoading/noteTerminalBusy(_:)``).
    public func startQueuedWork(terminalBusy: Bool = false) {
        if !requests.unsubmitted.isEmpty { submitWaitingRequests() }
        loader.startQueuedWork()
        loader.noteTerminalBusy(terminalBusy)
    }

    /// Requests neither delivered nor cancelled.
    public var pendingCount: Int { requests.pending.values.count { !$0.cancellable.isCancelled } }

    /// Requests still waiting to be handed to the loader.
    public var unsubmittedCount: Int { requests.unsubmitted.count }

    /// What the loader did, with the requests the store cancelled before handing them over.
    public var counters: AssetLoadCounters {
        var counters = loader.counters
        counters.skipped += requests.skippedBeforeHandOver
        return counters
    }
}

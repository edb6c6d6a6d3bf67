import CoreKit
import Synchronization

/// The background half of an ``AssetStore``: the loading pipeline (Nuke's, and what its
/// users asked of it), over any ``ImageSource`` — a folder, a simulated network, HTTP. The
/// one prepare step of every threaded source (issue 44).
///
/// - **One transfer per URL.** Requests for a URL under way (the same photo in two posts, a
///   prefetch then the cell, the detail view) join it; each gets its own prepared size.
/// - **Priorities, and promotion within a frame.** A transfer takes the lowest priority of
///   the requests waiting for it (``RequestPriority``), read again at every frame
///   (``postDueCompletions()``): a prefetch whose cell became visible moves ahead at once.
///   The ``TransferQueue`` keeps slots for visible cells and limits the rate of starts.
/// - **Cancellation stops bytes.** A transfer whose every request was cancelled before it
///   started never starts; one in flight is cancelled (its task, and so its connection),
///   unless it has ``keepWhenReceived`` of its body.
/// - Bytes are prepared on the decoding pool, below the frame loop, and posted to `inbox`.
///
/// The main thread calls ``load(_:request:priority:cancellation:)`` (which only queues),
/// ``startQueuedWork()`` after each commit and ``postDueCompletions()``; transfers run as
/// tasks on Swift's threads (a source's fetch is async). State is under one short lock (a few dictionary
/// operations; never held across a transfer or a decode), which the main thread only tries:
/// a transfer's thread may be preempted holding it (D-056).
public final class ImageLoader: AssetLoading, Sendable {
    /// Finished requests, for the store to drain.
    public let inbox: Mailbox<AssetCompletion>
    /// A transfer that has this share of its body finishes even when nobody waits any more:
    /// the rest costs less than asking again.
    public static let keepWhenReceived = 0.75
    /// Decoding threads: one per core (DECISIONS.md, D-019, for 1 against 2 on 2 cores).
    public static var defaultWorkers: Int { Platform.activeProcessorCount }
    /// Transfers in flight at once for a folder behind the simulated network (a server's
    /// are ``TransferPolicy/connections``). Waiting on the network costs no CPU, so a slow
    /// transfer must not hold a decoding worker: with one stage, two workers and 80 ms of
    /// latency, at most 25 images a second arrived however fast decoding was.
    public static let defaultTransfers = 16
    private let source: any ImageSource
    private let pool: WorkerPool<ImagePreparer>
    private let now: @Sendable () -> Duration
    private let state: Lock<State>
    /// Counts, bumped lock-free by every thread and read by the frame loop.
    private let tally = LoadTally()
    /// What the decoding workers record: the times to image. A lock of its own, which the
    /// main thread takes only when it is free (``recentTimeToImage``) or for the final
    /// figures: the workers run `SCHED_IDLE`, and one preempted while holding a lock the
    /// frame loop waited for stalled frames for 10–23 ms (D-056). `state` is never taken on
    /// a worker.
    private let workerSide = Lock(WorkerFigures())

    /// A loader fetching from `source` under `policy`, preparing on `workers` threads at
    /// `priority` for `colorMode` and `output` (local files through `thumbnails` when given);
    /// `now` is the clock transfers are timed on (by default the time since this init).
    public init(source: any ImageSource, policy: TransferPolicy = TransferPolicy(), workers: Int = ImageLoader.defaultWorkers,
                priority: WorkerPriority = .recommended, wake: WakeSignal? = nil, colorMode: CellColorMode,
                thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols, now: (@Sendable () -> Duration)? = nil) {
        self.source = source
        let origin = ContinuousClock.now
        let now = now ?? { ContinuousClock.now - origin }
        self.now = now
        inbox = Mailbox(wake: wake)
        state = Lock(State(queue: TransferQueue(policy: policy, now: now())))
        pool = WorkerPool(workers: workers, name: "image worker", priority: priority) {
            ImagePreparer(colorMode: colorMode, thumbnails: thumbnails, output: output)
        }
    }

    deinit {
        for transfer in state.withLock({ Array($0.transfers.values) }) { transfer.task?.cancel() }
        pool.stop()
    }

    /// What it did so far, as an ``AssetLoading``; read without a lock.
    public var counters: AssetLoadCounters { tally.snapshot }

    /// How far the transfer of `url` has come (bytes in, and the whole photo's length when
    /// the server said), or nil when none is under way: the detail view's progress.
    /// - Complexity: O(1), under the loader's lock (a few loads).
    public func progress(of url: String) -> (received: Int, expected: Int?)? {
        state.withLock { state in
            guard let transfer = state.transfers[url], transfer.task != nil else { return nil }
            return (transfer.received, transfer.expected)
        }
    }

    /// The median of the last 32 times from a request to its prepared image (nil before
    /// the first, and while a worker is recording one: never waits): what the prefetch
    /// distance is scaled by.
    public var recentTimeToImage: Duration? { workerSide.withLockIfAvailable { $0.recentTimeToImage } ?? nil }

    /// The network figures so far (the promoted count is the queue's). Waits for a worker
    /// that records: for reports, not for the frame loop.
    public var networkCounters: NetworkLoadCounters {
        let figures = workerSide.withLock { $0 }
        var counters = state.withLock { state in
            var counters = state.counters
            counters.promoted = state.queue.promoted
            return counters
        }
        counters.timeToImage = figures.timeToImage
        counters.visibleTimeToImage = figures.visibleTimeToImage
        counters.prepareTime = figures.prepareTime
        return counters
    }

    public func load(_ key: PreparedImageKey, request: Int, priority: Int, cancellation: Cancellable) -> Bool {
        let url = key.asset.path
        let time = now()
        let interest = Interest(key: key, request: request, cancellation: cancellation, askedAt: time,
                                visibleSince: RequestPriority.isPrefetch(priority) ? nil : time)
        // Never waits: while a transfer's thread holds the lock (and may be preempted there),
        // the request is refused and the store hands it over again later, in order (D-056).
        let taken: Void? = state.withLockIfAvailable { state in
            if let transfer = state.transfers[url] {
                if priority == RequestPriority.detail { transfer.kind = .original }
                transfer.interests.append(interest)
                transfer.orphaned = false
                state.counters.coalesced += 1
                state.queue.update(url, priority: min(state.queue.priority(of: url) ?? priority, priority))
            } else {
                let transfer = Transfer(interest)
                if priority == RequestPriority.detail { transfer.kind = .original }
                state.transfers[url] = transfer
                state.queue.add(url, priority: priority)
            }
            state.pumpWanted = true
        }
        // Not started here: requests arrive one by one while the commit lays cells out, and
        // starting each at once let the first asked (a prefetch) take a slot before a visible
        // cell asked later in the same frame; starting a transfer also wakes a thread, which
        // may take the frame loop's core mid-commit (D-055). ``startQueuedWork()`` does it.
        return taken != nil
    }

    /// Right after the commit: transfers nobody asked for again in it stop, then what this
    /// frame's requests allow starts, best first.
    public func startQueuedWork() {
        cancelOrphans()
        pump(waiting: false)
    }

    /// While the terminal works on the app's frames, and for ``terminalHold`` after, one
    /// decoding thread fewer runs (at least one): the terminal gets a core. The pool's
    /// threads are `SCHED_IDLE`, but only among the app's own threads: a terminal starts the
    /// app in a session of its own, and with the kernel's autogroups (Debian's default) each
    /// session is one group with a normal share of the cores, so two decoding threads held
    /// both cores against xterm and the kernel worker that hands it the pty's bytes, and a
    /// fling's frames waited for xterm 10–60 ms now and then (D-083).
    public func noteTerminalBusy(_ busy: Bool) {
        let time = now()
        if busy { lastBusy.store(time.nanoseconds, ordering: .relaxed) }
        let held = time.nanoseconds - lastBusy.load(ordering: .relaxed) < Self.terminalHold.nanoseconds
        pool.limitRunning(to: held ? pool.workerCount - 1 : .max)
    }

    /// How long the decoders keep leaving a core after the terminal last had work: a fling
    /// sends pixels every other frame or so, and a limit lifted and set again at each
    /// frame woke a thread each time; with `--stress 2` that gave more commit hitches in most
    /// rounds measured (D-083).
    public static let terminalHold = Duration.milliseconds(100)
    /// When the terminal last had work (``noteTerminalBusy(_:)``, ns on ``now``; far in the
    /// past at first).
    private let lastBusy = Atomic(Int64.min / 2)

    /// For tests (it waits for the pool's lock): how many decoding threads may run at once
    /// now (``noteTerminalBusy(_:)``).
    var decodingLimit: Int { pool.occupancy.limit }

    /// True while requests wait for ``startQueuedWork()``, or a frame's look found the lock
    /// taken (a quiet frame loop must not sleep on them). Never waits for the lock.
    public var hasDueCompletions: Bool {
        lookMissed.load(ordering: .relaxed) || (state.withLockIfAvailable { $0.pumpWanted } ?? true)
    }

    /// A frame's look or start found the lock held by a transfer's thread: the next frame
    /// does it (set and read without the lock).
    private let lookMissed = Atomic(false)

    /// Each frame, on the main thread: requests cancelled since the last frame leave their
    /// transfers (which stop when nobody is left), priorities are read again, and what the
    /// queue allows starts.
    /// Never waits: with the lock held by a transfer's thread, the look is the next frame's.
    public func postDueCompletions() {
        var toCancel: [Task<Void, Never>] = []
        var skipped = 0, abandoned = 0
        let time = now()
        let looked: Void? = state.withLockIfAvailable { state in
            for (url, transfer) in state.transfers {
                transfer.interests.removeAll { interest in
                    guard interest.cancellation.isCancelled else { return false }
                    if state.queue.isWaiting(url) { skipped += 1 } else { abandoned += 1 }
                    return true
                }
                for index in transfer.interests.indices where transfer.interests[index].visibleSince == nil
                    && !RequestPriority.isPrefetch(transfer.interests[index].cancellation.priority) {
                    transfer.interests[index].visibleSince = time
                }
                if let priority = transfer.interests.map(\.cancellation.priority).min() {
                    state.queue.update(url, priority: priority)
                    continue
                }
                // Nobody waits any more. Not started: it never will (no byte moved).
                if state.queue.remove(url) {
                    state.counters.cancelledBeforeStart += 1
                    state.transfers[url] = nil
                } else if transfer.orphaned {
                    // Orphaned at an earlier look and no commit since asked for it.
                    if let task = Self.stopUnlessNearlyDone(transfer, url: url, in: &state) { toCancel.append(task) }
                } else {
                    // Under way: stopped after this frame's commit, unless a cell asks again in it
                    // (cancelling at once, the same photo was asked for again a few ms later, on
                    // a new connection, while the server was still answering the first).
                    transfer.orphaned = true
                }
            }
        }
        guard looked != nil else {
            lookMissed.store(true, ordering: .relaxed)
            return
        }
        lookMissed.store(false, ordering: .relaxed)
        if skipped > 0 { tally.skipped.add(skipped, ordering: .relaxed) }
        if abandoned > 0 { tally.abandoned.add(abandoned, ordering: .relaxed) }
        for task in toCancel { task.cancel() }
        pump(waiting: false)
    }

    /// After the commit: the transfers orphaned at this frame's look that no request joined
    /// (with the lock taken, the next frame's look stops them, and the loop stays awake for it).
    private func cancelOrphans() {
        let toCancel: [Task<Void, Never>]? = state.withLockIfAvailable { state in
            var tasks: [Task<Void, Never>] = []
            for (url, transfer) in state.transfers where transfer.orphaned && transfer.interests.isEmpty {
                if let task = Self.stopUnlessNearlyDone(transfer, url: url, in: &state) { tasks.append(task) }
            }
            return tasks
        }
        guard let toCancel else { return lookMissed.store(true, ordering: .relaxed) }
        for task in toCancel { task.cancel() }
    }

    /// Under the lock: a transfer under way that nobody waits for stops (its task is
    /// returned, to cancel outside the lock), unless it has most of its body.
    private static func stopUnlessNearlyDone(_ transfer: Transfer, url: String, in state: inout State) -> Task<Void, Never>? {
        if let expected = transfer.expected, expected > 0, Double(transfer.received) >= keepWhenReceived * Double(expected) {
            if !transfer.keptNearlyDone { state.counters.keptNearlyDone += 1 }
            transfer.keptNearlyDone = true
            return nil
        }
        transfer.cancelled = true
        state.counters.cancelledInFlight += 1
        state.transfers[url] = nil
        state.queue.finished(url)
        return transfer.task
    }

    /// Starts every transfer the queue allows now; arms a timer when only the rate holds
    /// one back. The frame loop does not wait (`waiting` false): with the lock taken, the
    /// next frame starts them (or the transfer ending now, which pumps too).
    private func pump(waiting: Bool = true) {
        let time = now()
        var wakeAt: Duration?
        let body = { (state: inout State) in
            state.pumpWanted = false
            while let url = state.queue.nextToStart(at: time) {
                guard let transfer = state.transfers[url] else {
                    state.queue.finished(url)
                    continue
                }
                // Everyone waiting cancelled since the last frame's look: it never starts.
                if transfer.interests.allSatisfy(\.cancellation.isCancelled) {
                    state.queue.finished(url)
                    state.transfers[url] = nil
                    state.counters.cancelledBeforeStart += 1
                    self.tally.skipped.add(transfer.interests.count, ordering: .relaxed)
                    continue
                }
                // Its task is made under the lock, so a cancel always finds it (the task's
                // first look at the lock waits for this pump to end).
                transfer.task = self.makeTask(transfer, url: url)
                state.counters.transfers += 1
                transfer.startedAt = time
                for interest in transfer.interests { state.counters.queueWait.append((time - interest.askedAt).milliseconds) }
            }
            if !state.timerArmed, let at = state.queue.nextStartTime(at: time) {
                state.timerArmed = true
                wakeAt = at
            }
        }
        if waiting {
            state.withLock(body)
        } else if state.withLockIfAvailable(body) == nil {
            lookMissed.store(true, ordering: .relaxed)
            return
        }
        if let wakeAt {
            Task.detached(priority: .low) { [self] in
                BatchScheduling.enterOnCurrentThread()
                try? await Task.sleep(for: max(.milliseconds(1), wakeAt - now()))
                state.withLock { $0.timerArmed = false }
                pump()
            }
        }
    }

    /// The task that runs a transfer, started at once on Swift's threads.
    private func makeTask(_ transfer: Transfer, url: String) -> Task<Void, Never> {
        Task.detached(priority: .low) { [self] in
            BatchScheduling.enterOnCurrentThread()
            if let kept = source.keptImage(at: url) {
                state.withLock { state in
                    transfer.fromKeptCopy = true
                    state.counters.keptCopies += 1
                }
                finish(transfer, url: url, result: .success(kept))
                return
            }
            let result: Result<ImageInput, ImageError>
            do throws(ImageError) {
                let (kind, request) = state.withLock { _ in (transfer.kind, transfer.interests.first?.request ?? 0) }
                result = .success(try await source.image(at: url, kind: kind, request: request) { [state] bytes, declared in
                    state.withLock { state in
                        transfer.received += bytes
                        transfer.expected = declared
                        state.counters.bytes += bytes
                        state.counters.bytesByURL[url, default: 0] += bytes
                        if transfer.cancelled { state.counters.bytesAfterCancel += bytes }
                    }
                })
            } catch {
                result = .failure(error)
            }
            finish(transfer, url: url, result: result)
        }
    }

    /// A transfer ended: its live requests are prepared (or fail), its slot is free.
    private func finish(_ transfer: Transfer, url: String, result: Result<ImageInput, ImageError>) {
        let ended = now()
        let waiting: [Interest] = state.withLock { state in
            transfer.endedAt = ended
            if !transfer.cancelled { state.counters.transferTime.append((ended - transfer.startedAt).milliseconds) }
            if state.transfers[url] === transfer {
                state.transfers[url] = nil
                state.queue.finished(url)
            }
            if transfer.fromKeptCopy { state.queue.refundStart() }
            guard !transfer.cancelled else { return [] }
            if case .failure = result { state.counters.failed += 1 }
            return transfer.interests
        }
        // Cancelled since the last frame's look: they end here, unprepared.
        let cancelled = waiting.count(where: \.cancellation.isCancelled)
        if cancelled > 0 { tally.abandoned.add(cancelled, ordering: .relaxed) }
        let interests = waiting.filter { !$0.cancellation.isCancelled }
        defer { pump() }
        switch result {
        case .failure(let error):
            tally.failed.add(interests.count, ordering: .relaxed)
            for interest in interests { inbox.post(AssetCompletion(request: interest.request, key: interest.key, result: .failure(error))) }
        case .success(let input):
            for interest in interests {
                pool.submit(priority: interest.cancellation.priority) { [self] preparer in
                    prepare(input, for: interest, with: preparer, arrivedAt: ended)
                }
            }
        }
    }

    /// The one prepare step: decode and convert on a worker, time it, post it.
    private func prepare(_ input: ImageInput, for interest: Interest, with preparer: ImagePreparer, arrivedAt: Duration) {
        guard !interest.cancellation.isCancelled else {
            tally.abandoned.add(1, ordering: .relaxed)
            return
        }
        let result: Result<CellImage, ImageError>
        do throws(ImageError) {
            result = .success(try preparer.prepare(input, for: interest.key))
        } catch {
            result = .failure(error)
        }
        let done = now()
        // Promoted while it waited for a worker: counted from the last byte, the most it can have waited.
        let wanted = interest.visibleSince ?? (RequestPriority.isPrefetch(interest.cancellation.priority) ? nil : arrivedAt)
        let timeToImage = (done - interest.askedAt).milliseconds
        if case .success = result { tally.prepared.add(1, ordering: .relaxed) } else { tally.failed.add(1, ordering: .relaxed) }
        // Posted even when cancelled meanwhile: the store caches it (D-011), unshown.
        if case .success = result, interest.cancellation.isCancelled { tally.dropped.add(1, ordering: .relaxed) }
        workerSide.withLock { figures in
            figures.timeToImage.append(timeToImage)
            if let wanted { figures.visibleTimeToImage.append((done - wanted).milliseconds) }
            figures.prepareTime.append((done - arrivedAt).milliseconds)
            let recent = figures.timeToImage.suffix(32).sorted()
            figures.recentTimeToImage = .milliseconds(recent[(recent.count - 1) / 2])
        }
        inbox.post(AssetCompletion(request: interest.request, key: interest.key, result: result))
    }
}


import CoreKit

/// Delivery on the main thread: the frame's drain step takes what the loader posted, caches
/// it, and runs the completions a frame can afford; the rest wait in the backlog, in order.
extension AssetStore {
    /// The completions waiting to run, and what the last deliveries left for the frame loop to ask.
    struct Deliveries {
        /// Completions taken from the loader and not yet delivered (over a frame's limit, or
        /// answered from the cache at once and due at the next delivery).
        var backlog: [AssetCompletion] = []
        /// The last delivery stopped at an image whose transmission did not fit its budget.
        var transmissionsHeldBack = false
        /// Whether the workers decoded since the last ``AssetStore/takeMemoryToReturn()``: their
        /// arenas hold what each decode freed until it is trimmed.
        var workedSinceMemoryReturn = false
    }

    /// Image transmissions a second, at most (16 MiB: 128 KiB a frame at 120 Hz, 256 KiB at
    /// 60); a frame's share is passed to ``deliverCompletions(limit:transmissionBytes:)``.
    public static let transmissionBytesPerSecond = 16 << 20

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
        deliveries.transmissionsHeldBack = false
        if !requests.unsubmitted.isEmpty { submitWaitingRequests() }
        loader.postDueCompletions()
        if let arrived = loader.inbox.drainIfAvailable(), !arrived.isEmpty {
            deliveries.workedSinceMemoryReturn = true
            for completion in arrived {
                switch completion.result {
                // An image with something for the terminal (a kitty transmission, strips for
                // the presenter) is cached when that is handed over (below), not before.
                case .success(let image):
                    if !image.hasTerminalPayload { cacheAndDeleteEvicted(image, for: completion.key) }
                    failures.interrupted.arrived(completion.key)
                case .failure(let error):
                    failures.byKey[completion.key] = error
                    if error.isTransient { failures.interrupted.failed(completion.key) }
                }
            }
            deliveries.backlog += arrived
        }
        guard !deliveries.backlog.isEmpty else { return 0 }
        var delivered = 0, taken = 0, transmitted = 0
        var sawCancelled = false
        for var completion in deliveries.backlog {
            if delivered >= limit { break }
            if case .success(let image) = completion.result, image.hasTerminalPayload {
                let cancelled = requests.pending[completion.request]?.cancellable.isCancelled ?? true
                if !cancelled {
                    if (transmitted > 0 || transmissionBytes <= 0) && transmitted + image.transmission.count > transmissionBytes {
                        deliveries.transmissionsHeldBack = true
                        break
                    }
                    transmitted += image.transmission.count
                    terminal.escapes += image.transmission
                    if let pixels = image.pixelImage { terminal.pixelImagesDefined.append(pixels) }
                    cacheAndDeleteEvicted(image.sent, for: completion.key)
                }
                completion = AssetCompletion(request: completion.request, key: completion.key, result: .success(image.sent))
            }
            taken += 1
            guard let request = requests.pending.removeValue(forKey: completion.request) else { continue }
            guard !request.cancellable.isCancelled else {
                sawCancelled = true
                continue
            }
            request.completion(completion.result)
            delivered += 1
        }
        deliveries.backlog.removeFirst(taken)
        if sawCancelled { requests.pending = requests.pending.filter { !$0.value.cancellable.isCancelled } }
        return delivered
    }

    /// The last ``deliverCompletions(limit:transmissionBytes:)`` stopped at an image whose
    /// transmission did not fit its budget (it waits in the backlog).
    public var transmissionsHeldBack: Bool { deliveries.transmissionsHeldBack }

    /// True once after the workers delivered anything: the caller, going quiet, gives their
    /// freed memory back (CoreKit's `MemoryReturn`). A decode of 96 MB freed on a worker stays
    /// resident in its arena otherwise (issue 43: the soak's settled RSS moved with it while
    /// the memory in use did not).
    public func takeMemoryToReturn() -> Bool {
        defer { deliveries.workedSinceMemoryReturn = false }
        return deliveries.workedSinceMemoryReturn
    }

    /// Completions posted and not yet delivered.
    public var undeliveredCount: Int { loader.inbox.count + deliveries.backlog.count }

    /// True when the next `deliverCompletions(limit:)` may have something to do (never
    /// waits for a worker): a frame loop that wants to sleep asks this first.
    public var hasWorkForMainThread: Bool {
        !deliveries.backlog.isEmpty || !requests.unsubmitted.isEmpty || failures.interrupted.hasUnstamped
            || loader.inbox.mayHaveMessages || loader.hasDueCompletions
    }

    /// When a scripted loader's next completion falls due (threads wake the loop through the
    /// mailbox's `WakeSignal` instead), or an interrupted photo is to be asked for again,
    /// whichever is first.
    public var nextDueTime: Duration? {
        guard let retry = failures.interrupted.earliest else { return loader.nextDueTime }
        return min(loader.nextDueTime ?? retry, retry)
    }
}

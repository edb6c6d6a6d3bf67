/// The one door from background threads to the main thread's frame loop.
///
/// On Linux a synchronous frame loop on the main thread never runs
/// `DispatchQueue.main.async` blocks, and main-actor code resumed after an `await` may
/// run on a worker thread. So background work does not call back into UI state: it posts
/// a Sendable message here, and step 2 of every frame drains the box on the main thread
/// (see DECISIONS.md, D-001). Messages come out in the order they were posted.
public final class Mailbox<Message: Sendable>: Sendable {
    @usableFromInline let pending = Lock<[Message]>([])
    /// Signalled after every post, so a frame loop asleep while nothing moves wakes up.
    public let wake: WakeSignal?

    /// An empty mailbox; each post signals `wake`, if given.
    public init(wake: WakeSignal? = nil) {
        self.wake = wake
    }

    /// Callable from any thread; never blocks for longer than an array append.
    @inlinable
    public func post(_ message: Message) {
        pending.withLock { $0.append(message) }
        wake?.signal()
    }

    /// False only when the box is known to be empty; true when it holds messages or a
    /// poster holds it right now (never waits).
    @inlinable
    public var mayHaveMessages: Bool { pending.withLockIfAvailable { !$0.isEmpty } ?? true }

    /// Takes every message posted so far, oldest first.
    /// - Complexity: O(n) under the lock: the messages are copied into an array the drainer
    ///   allocates, and the posters' array stays in the box, emptied, for their next posts
    ///   (`Array.takeAllKeepingStorage()`: the drainer never frees a poster's memory, D-059).
    @inlinable
    public func drain() -> [Message] {
        pending.withLock { $0.takeAllKeepingStorage() }
    }

    /// ``drain()`` if no poster holds the box right now, else nothing (nil): the frame
    /// loop's way in, so that a poster preempted mid-post never stalls a frame.
    @inlinable
    public func drainIfAvailable() -> [Message]? {
        pending.withLockIfAvailable { $0.takeAllKeepingStorage() }
    }

    /// The storage the posters fill and the room in it (for tests: the drainer never takes it).
    var storage: (address: UnsafeRawPointer?, capacity: Int) {
        pending.withLock { box in (box.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }, box.capacity) }
    }

    /// Values posted and not yet drained (takes the lock: for tests and figures, not for the frame loop).
    public var count: Int { pending.withLock { $0.count } }
}

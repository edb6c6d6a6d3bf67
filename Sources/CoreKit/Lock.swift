
/// State guarded by a `pthread_mutex_t`: the one lock type of the project.
///
/// Not `Synchronization.Mutex`: on Linux that one waits on a futex, which ThreadSanitizer
/// does not intercept, so every access it protects is reported as a race and real races
/// drown in the noise. TSan intercepts `pthread_mutex_lock`/`unlock` and sees the
/// happens-before edges. The measured cost of the choice is in DECISIONS.md (D-017).
///
/// Keep what runs under the lock short (a few loads and stores): the main thread takes
/// these locks inside frames, so nothing slow may run while one is held.
public final class Lock<State>: @unchecked Sendable where State: Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<Platform.Mutex>
    /// Behind a pointer rather than in a stored property: a class's `var` pays a dynamic
    /// exclusivity check on every access, which doubled the cost of a lock/unlock pair.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// A lock guarding `initial`.
    public init(_ initial: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
        mutex = Platform.makeMutex()
    }

    deinit {
        Platform.destroyMutex(mutex)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        Platform.lock(mutex)
        defer { Platform.unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Runs `body` if the lock is free right now, else returns nil at once.
    ///
    /// For the main thread facing a lock that lower-priority threads take: a worker
    /// preempted while holding it would otherwise stall the frame (priority inversion,
    /// seen as 20–300 ms commits under load); the main thread tries again next frame.
    @inlinable
    public func withLockIfAvailable<Result>(_ body: (inout State) throws -> Result) rethrows -> Result? {
        guard Platform.tryLock(mutex) else { return nil }
        defer { Platform.unlock(mutex) }
        return try body(&state.pointee)
    }
}

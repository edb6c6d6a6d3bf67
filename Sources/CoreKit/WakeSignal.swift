
/// Wakes a thread that sleeps in `poll`: any thread signals, the sleeper polls ``descriptor``.
///
/// The frame loop sleeps when nothing moves (a display link pauses when nothing animates);
/// a worker that posts a result, or a termination signal, must end that sleep at once.
/// A non-blocking pipe: signalling writes a byte (a full pipe already means "awake"),
/// and the sleeper empties it before looking at what woke it.
public final class WakeSignal: Sendable {
    /// Readable while a wake-up is pending.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// A signal with its own non-blocking pipe.
    public init() {
        (descriptor, writeEnd) = Platform.makeNonBlockingPipe()
    }

    deinit {
        Platform.close(descriptor)
        Platform.close(writeEnd)
    }

    /// Callable from any thread and from a signal handler (one `write(2)`).
    public func signal() {
        Platform.writeByte(to: writeEnd)
    }

    /// Empties the pipe (on the sleeper's thread, after waking).
    public func clear() {
        Platform.drain(descriptor)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    public init() {
        var ends: [Int32] = [-1, -1]
        let status = pipe(&ends)
        precondition(status == 0, "WakeSignal: pipe() failed")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Callable from any thread and from a signal handler (one `write(2)`).
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe (on the sleeper's thread, after waking).
    public func clear() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Closing a file descriptor: one `close(2)`, for every target that holds descriptors.
public enum FileDescriptor {
    /// Closes `descriptor`, ignoring errors (there is nothing to do about a failed close).
    public static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

/// Linux's `SCHED_BATCH` class for the background threads the frame loop wakes mid-frame (a
/// data source's queue, a page's or a transfer's task): the same share of the CPU as a
/// normal thread, but waking one never preempts the thread running, so it waits for the
/// frame loop to sleep or takes another core. A normal thread woken that way took the frame
/// loop's core for a scheduler tick (3–4 ms; D-055). Any thread may enter it without
/// privilege; Swift's concurrency pool runs only background work in this app.
public enum BatchScheduling {
    /// Puts the calling thread in `SCHED_BATCH` (policy 3) unless it is there; false if the
    /// system refused, or elsewhere than Linux.
    @discardableResult
    public static func enterOnCurrentThread() -> Bool {
        #if os(Linux)
        var parameters = sched_param()
        return sched_getscheduler(0) == 3 || sched_setscheduler(0, 3, &parameters) == 0
        #else
        return false
        #endif
    }
}

/// The C library calls of CoreKit, in one place: the mutex behind ``Lock`` and the pipe
/// behind ``WakeSignal``. No other file of the target imports libc.
@usableFromInline
enum Platform {
    @usableFromInline typealias Mutex = pthread_mutex_t

    static func makeMutex() -> UnsafeMutablePointer<Mutex> {
        let mutex = UnsafeMutablePointer<Mutex>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        return mutex
    }

    static func destroyMutex(_ mutex: UnsafeMutablePointer<Mutex>) {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable static func lock(_ mutex: UnsafeMutablePointer<Mutex>) { pthread_mutex_lock(mutex) }
    @inlinable static func tryLock(_ mutex: UnsafeMutablePointer<Mutex>) -> Bool { pthread_mutex_trylock(mutex) == 0 }
    @inlinable static func unlock(_ mutex: UnsafeMutablePointer<Mutex>) { pthread_mutex_unlock(mutex) }

    /// A pipe whose ends never block and are closed on exec.
    static func makeNonBlockingPipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let status = pipe(&ends)
        precondition(status == 0, "pipe() failed")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    static func close(_ descriptor: Int32) { FileDescriptor.close(descriptor) }

    /// One `write(2)` of one byte: async-signal-safe.
    static func writeByte(to descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// Reads until the (non-blocking) descriptor is empty.
    static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}

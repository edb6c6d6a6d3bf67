#if canImport(Glibc)
import CThreadScheduling
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

/// The calling thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`; not in the vDSO, a system call
/// of well under a microsecond): beside a wall clock it tells running from waiting for a
/// core, for the frame loop's hitches (D-070) and the image workers' rescue (D-063).
public enum ThreadCPUClock {
    /// The CPU time the calling thread has used since it started.
    public static var now: Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
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

/// The frame loop's time slice under Linux's EEVDF scheduler (6.12 and later).
///
/// A thread that sleeps most of each frame wakes with the right to run, but a busy thread of
/// the same nice value on its core keeps the core until its own slice ends, checked at the
/// next scheduler tick (4 ms at HZ 250): with both cores busy the frame loop started 8–11 ms
/// after its tick, a hitch at 120 Hz. A thread asking for a slice shorter than the default
/// preempts such a thread when it wakes (the kernel's `PREEMPT_SHORT`), and pays for it by
/// being preempted sooner when it runs long: a commit longer than the slice is cut at the
/// next tick. Measured on two busy cores, that cost outweighed the gain (D-058), so the app
/// asks only under `--frame-slice-us`. Any thread may ask, without privilege; threads it
/// creates afterwards keep the default.
public enum FrameLoopScheduling {
    /// Asks for a `slice`-long time slice for the calling thread and returns the slice the
    /// kernel then reports (it clamps to 0.1–100 ms), or nil: another class than
    /// `SCHED_OTHER`, refused, a kernel before 6.12 (it reports no slice), or elsewhere than
    /// Linux.
    @discardableResult
    public static func requestSlice(_ slice: Duration) -> Duration? {
        #if os(Linux)
        let nanoseconds = slice.components.seconds * 1_000_000_000 + slice.components.attoseconds / 1_000_000_000
        let after = thread_scheduling_request_slice(UInt64(max(0, nanoseconds)))
        return after > 0 ? .nanoseconds(after) : nil
        #else
        return nil
        #endif
    }

    /// The calling thread's slice as the kernel reports it, or nil.
    public static var currentSlice: Duration? {
        #if os(Linux)
        let slice = thread_scheduling_slice()
        return slice > 0 ? .nanoseconds(slice) : nil
        #else
        return nil
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

/// Folders and files only the person reads (issue 43): the state, the HTTP cache and the
/// account file hold what someone did, every URL fetched and a token. Made with modes 0700
/// and 0600 whatever the umask, and checked at every open: one found looser (made by an
/// older version, by hand, under another umask) is put right, and the repair is said, so
/// the person learns that what it held may have been read.
public enum PrivateFiles {
    /// Why a private folder or file could not be had.
    public struct Failure: Error, CustomStringConvertible {
        /// One line, naming the path and the system's reason.
        public let description: String
    }

    /// Makes `path` a folder of mode 0700, with any missing parents (also 0700); an existing
    /// one that others may read or enter is made 0700. Returns a line for each repair.
    @discardableResult
    public static func folder(_ path: String) throws(Failure) -> [String] {
        var info = stat()
        if stat(path, &info) != 0 {
            let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !parent.isEmpty, stat(parent, &info) != 0 { try folder(parent) }
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Failure(description: "cannot make \(path): \(reason())") }
            // mkdir's mode is cut by the umask; a umask that cuts the owner's bits is put right too.
            _ = chmod(path, 0o700)
            return []
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw Failure(description: "\(path) is not a folder") }
        return try repair(path, mode: info.st_mode, to: 0o700)
    }

    /// Makes `path` a file of mode 0600 when it is missing (empty: its writer fills it), and
    /// one that others may read 0600. Returns a line for each repair.
    @discardableResult
    public static func file(_ path: String) throws(Failure) -> [String] {
        var info = stat()
        if stat(path, &info) != 0 {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Failure(description: "cannot make \(path): \(reason())") }
            _ = fchmod(descriptor, 0o600)
            FileDescriptor.close(descriptor)
            return []
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(description: "\(path) is not a plain file") }
        return try repair(path, mode: info.st_mode, to: 0o600)
    }

    /// Each of `paths` that exists made private as ``file(_:)`` does (a database's `-wal` and
    /// `-shm` beside it); missing ones are left missing.
    @discardableResult
    public static func existingFiles(_ paths: [String]) -> [String] {
        var repairs: [String] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            repairs += (try? repair(path, mode: info.st_mode, to: 0o600)) ?? []
        }
        return repairs
    }

    private static func repair(_ path: String, mode: mode_t, to wanted: mode_t) throws(Failure) -> [String] {
        let permissions = mode & 0o777
        guard permissions != wanted else { return [] }
        guard chmod(path, wanted) == 0 else { throw Failure(description: "cannot make \(path) private: \(reason())") }
        guard permissions & 0o077 != 0 else { return [] }  // only the owner's bits differed: nothing was exposed
        return ["\(path) could be read by others (mode \(octal(permissions))); it is \(octal(wanted)) now"]
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

/// Giving memory freed by any thread back to the system: glibc keeps what is freed in each
/// thread's malloc arena, so a process whose workers decoded and freed 100 MB holds it,
/// resident, until it is trimmed. One `malloc_trim(0)`, for a frame loop that has gone quiet
/// (never inside frames: it takes each arena's lock in turn, D-056).
public enum MemoryReturn {
    /// Returns the free memory of every malloc arena to the system.
    public static func toTheSystem() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}

#if canImport(Glibc)
/// glibc's malloc_trim (malloc.h is not part of Swift's Glibc module).
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
#endif

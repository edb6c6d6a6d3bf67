#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of ImagePipeline, in one place: reading a photo without blocking
/// on special files, the thumbnail cache's files and folders, thread priorities, the core
/// count and short sleeps. No other file of
/// the target imports libc.
enum Platform {
    /// Reads a whole regular file of at most `limit` bytes; anything else fails with why.
    /// Opened non-blocking: a named pipe (or a device) in a photo folder would otherwise
    /// block `open` until a writer came, hanging a worker forever.
    static func readRegularFile(_ path: String, limit: Int) throws(ImageError) -> [UInt8] {
        // Only regular files are opened: the type is asked first, then checked again on
        // the descriptor (the file may be replaced in between).
        var named = stat()
        if stat(path, &named) == 0, (named.st_mode & S_IFMT) != S_IFREG { throw .unreadable(path: path, reason: "not a regular file") }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT ? .missing(path: path) : .unreadable(path: path, reason: describe(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: describe(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw .empty(path: path) }
        guard size <= limit else { throw .unreadable(path: path, reason: "file of \(size >> 20) MB is over the \(limit >> 20) MB limit") }
        var data = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, size - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .unreadable(path: path, reason: count == 0 ? "file shrank while reading" : describe(errno)) }
            offset += count
        }
        return data
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Modification time in whole seconds (what the thumbnail spec's `Thumb::MTime` holds),
    /// or nil when the path cannot be stat'ed.
    static func modificationTime(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mtim.tv_sec)
    }

    /// The absolute path without symbolic links or dot segments, or nil.
    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates `path` and any missing parents, each with `mode`; true when it exists after.
    static func makeDirectories(_ path: String, mode: mode_t) -> Bool {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { return false }
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` to `path` whole or not at all: into a temporary file beside it (mode
    /// `mode`), then renamed over it, so a reader never sees half a file.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        let temporary = "\(path).\(getpid()).\(pthread_self()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { close(fd); unlink(temporary); return false }
            offset += count
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else { unlink(temporary); return false }
        return true
    }

    /// An environment variable, or nil.
    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// The user's home folder: HOME, else the password database.
    static var homeDirectory: String? {
        if let home = environment("HOME"), !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// Sets the calling thread's nice value (on Linux the nice value is per thread: who = 0
    /// is the calling thread); false if the system refused.
    static func setCurrentThreadNice(_ nice: Int32) -> Bool {
        #if os(Linux)
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
        #else
        false
        #endif
    }

    /// Puts the calling thread in Linux's `SCHED_IDLE` class (policy 5: Glibc hides the
    /// name without `_GNU_SOURCE`); false if the system refused.
    static func setCurrentThreadIdleClass() -> Bool {
        #if os(Linux)
        var parameters = sched_param()
        return sched_setscheduler(0, 5, &parameters) == 0
        #else
        return false
        #endif
    }

    /// The calling thread's nice value.
    static var currentThreadNice: Int32 {
        #if os(Linux)
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        0
        #endif
    }

    /// Cores online.
    static var activeProcessorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Sleeps the calling thread for `duration` (a worker's simulated transfer).
    static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

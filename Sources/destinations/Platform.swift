#if canImport(Glibc)
import Glibc
#endif
import FeedFormat

/// Everything the app asks the C library, in one place: the environment, whether it runs
/// in a terminal, standard error, malloc's tuning, resident memory, page faults and CPU
/// time. Nothing else in the app imports Glibc.
enum Platform {
    /// The environment variable `name`, if set.
    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Standard input and output are both a terminal.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 }

    /// Writes `text` to standard error unbuffered (one call: lines never interleave), through
    /// the one sanitiser (``PlainText/cleanLines(_:)``): a message may quote a URL, a host, a
    /// server's words or a file name, and no byte from outside reaches the terminal (issue 43).
    static func writeToStandardError(_ text: String) {
        var line = PlainText.cleanLines(text)
        line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// The signal number a hang-up ends the process with.
    static let hangUpSignal = SIGHUP

    /// Ends the process with `status`.
    static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Swift's runtime backtracer reads `SWIFT_BACKTRACE` once, before `main`; on a terminal
    /// it then waits up to 30 s for a key after a crash ("Press space to interact"), holding
    /// the shell. Unless the person set the variable, the process starts itself again with
    /// `interactive=no`, so a crash prints its backtrace on the restored screen and ends.
    /// Costs one `execve` at launch (BENCHMARKS.md); returns when nothing needs doing or the
    /// exec failed.
    static func quietTheBacktracer() {
        guard getenv("SWIFT_BACKTRACE") == nil else { return }
        setenv("SWIFT_BACKTRACE", "interactive=no", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }

    /// Malloc thresholds fixed, not glibc's dynamic ones. Dynamic, the mmap threshold rises
    /// after the first large free and later decode buffers stay in the heap for good (27 →
    /// 95 MB over an 8 s fling). Fixed at 128 KiB, every decode buffer was an mmap/munmap
    /// pair, each taking the address space's lock for writing: a low-priority worker
    /// preempted there stalled the main thread's next page fault (commits of 36 ms to 1 s
    /// with `--stress 2`). At 32 MiB with an 8 MiB trim threshold, buffers are reused
    /// inside each worker's arena and memory stays bounded; DECISIONS.md D-019.
    static func tuneMalloc() {
        _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)
        _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 8 << 20)
    }

    /// Current resident set size in bytes (/proc/self/statm).
    static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0, resident = 0
        guard readTwoNumbers(file, &size, &resident) else { return 0 }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func readTwoNumbers(_ file: UnsafeMutablePointer<FILE>, _ first: inout Int, _ second: inout Int) -> Bool {
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
        let fields = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let a = Int(fields[0]), let b = Int(fields[1]) else { return false }
        (first, second) = (a, b)
        return true
    }

    /// The largest resident set size so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// Minor page faults of the calling thread so far (`RUSAGE_THREAD`).
    static func minorFaultsOfThisThread() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, hidden by Glibc without _GNU_SOURCE
        return usage.ru_minflt
    }

    /// User and system time of every thread of the process.
    static func processCPUTime() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    /// Writes `text` to `path`, replacing it, through the one sanitiser (a report or trace may
    /// be read with `cat`); the error says why not.
    static func writeFile(_ text: String, to path: String) throws(AppError) {
        let text = PlainText.cleanLines(text)
        guard let file = fopen(path, "w") else { throw AppError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        guard fputs(text, file) >= 0, fflush(file) == 0 else { throw AppError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}

/// glibc's mallopt (malloc.h is not part of Swift's Glibc module).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

import CTerminalRestore
import CoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of TerminalFront, in one place: terminals and descriptors,
/// `poll`, termios for the synchronized-output probe, the locale, signal masks and the
/// kernel's per-thread write count. No other file of the target imports libc (ncurses
/// is in `Curses.swift`).
enum Platform {
    static let standardInput: Int32 = STDIN_FILENO
    static let standardOutput: Int32 = STDOUT_FILENO

    /// Signal numbers, named once for the target.
    static let interrupt = SIGINT, terminate = SIGTERM, hangUp = SIGHUP, quit = SIGQUIT
    static let segmentationFault = SIGSEGV, busError = SIGBUS, illegalInstruction = SIGILL
    static let trap = SIGTRAP, abort = SIGABRT, floatingPointError = SIGFPE

    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    static var standardStreamsAreTerminals: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 }

    /// `/dev/null` for writing and for reading (a headless screen's ends).
    static func openNullDevice() -> (output: Int32, input: Int32)? {
        let output = open("/dev/null", O_WRONLY | O_CLOEXEC), input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return output >= 0 && input >= 0 ? (output, input) : nil
    }

    static func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

    static func close(_ descriptor: Int32) { FileDescriptor.close(descriptor) }

    /// Writes all of `bytes` with one `write(2)`; true when all went.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
            Glibc.write(descriptor, buffer.baseAddress, buffer.count) == buffer.count
            #else
            Darwin.write(descriptor, buffer.baseAddress, buffer.count) == buffer.count
            #endif
        }
    }

    /// Writes all of `bytes`, in as many `write(2)` calls as it takes (a large image may be
    /// taken in parts; a signal may interrupt); false on an error.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                let count = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    // MARK: The frame loop's output (TerminalWriter, UpdateCapture)

    /// A file in memory that ncurses writes its updates into (never blocks, never fills):
    /// `memfd_create`, or an unlinked temporary file where that is missing.
    static func makeCaptureFile() -> Int32? {
        let memory = terminal_capture_file()
        if memory >= 0 { return memory }
        guard let file = tmpfile() else { return nil }
        let descriptor = fcntl(fileno(file), F_DUPFD_CLOEXEC, 0)
        fclose(file)
        return descriptor >= 0 ? descriptor : nil
    }

    /// A second descriptor for the same open file (close-on-exec), or -1.
    static func duplicate(_ descriptor: Int32) -> Int32 { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }

    /// Makes `target` refer to what `source` refers to (`dup2`); true on success.
    @discardableResult
    static func redirect(_ target: Int32, to source: Int32) -> Bool {
        while true {
            if dup2(source, target) >= 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// The terminal on standard output opened again for non-blocking writes: an open file
    /// of its own, so `O_NONBLOCK` never reaches the shell's (which shares standard output's).
    static func openTerminalForNonBlockingWrites() -> Int32? {
        let flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        let reopened = open("/proc/self/fd/\(STDOUT_FILENO)", flags)
        if reopened >= 0 { return reopened }
        guard let name = ttyname(STDOUT_FILENO) else { return nil }
        let byName = open(name, flags)
        return byName >= 0 ? byName : nil
    }

    /// The outcome of one non-blocking `write(2)`.
    enum WriteOutcome { case wrote(Int), full, failed }

    static func writeSome(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> WriteOutcome {
        while true {
            #if canImport(Glibc)
            let count = Glibc.write(descriptor, buffer.baseAddress, buffer.count)
            #else
            let count = Darwin.write(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if count >= 0 { return .wrote(count) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .full : .failed
        }
    }

    /// Waits up to `milliseconds` for `descriptor` to take more bytes; a signal also ends
    /// the wait. True when it can be written to (or has failed: the next write says so).
    static func waitWritable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
        #if canImport(Glibc)
        let ready = Glibc.poll(&entries, nfds_t(entries.count), milliseconds)
        #else
        let ready = Darwin.poll(&entries, nfds_t(entries.count), milliseconds)
        #endif
        return ready > 0 && entries[0].revents != 0
    }

    /// Where the next write to `descriptor` goes (its length so far, for a capture file).
    static func currentOffset(_ descriptor: Int32) -> Int { Int(lseek(descriptor, 0, SEEK_CUR)) }

    /// Back to the start of a capture file (what was written there is read already).
    static func rewind(_ descriptor: Int32) { lseek(descriptor, 0, SEEK_SET) }

    /// Reads `count` bytes from offset 0 of `descriptor` onto the end of `buffer`.
    static func appendFromStart(of descriptor: Int32, count: Int, to buffer: inout [UInt8]) {
        guard count > 0 else { return }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        var done = 0
        buffer.withUnsafeMutableBytes { bytes in
            while done < count {
                let read = pread(descriptor, bytes.baseAddress! + start + done, count - done, off_t(done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { break }
                done += read
            }
        }
        if done < count { buffer.removeLast(count - done) }
    }

    /// The terminal's size in cells as the kernel knows it (`TIOCGWINSZ`), or nil.
    static func windowCells(of descriptor: Int32) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// The terminal's text area in pixels as the kernel knows it (`TIOCGWINSZ`; xterm and
    /// most emulators fill it in), or nil when it says 0.
    static func windowPixels(of descriptor: Int32) -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_xpixel > 0, size.ws_ypixel > 0 else { return nil }
        return (Int(size.ws_xpixel), Int(size.ws_ypixel))
    }

    /// Up to `capacity` bytes from the start of a file (`pread` at offset 0).
    static func readFromStart(_ descriptor: Int32, capacity: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: capacity)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[..<count]) : nil
    }

    /// Waits up to `milliseconds` (-1: no limit) for any of `descriptors` to be readable;
    /// a signal also ends the wait. Returns the descriptors that are readable and whether
    /// any reported a hang-up or an error; nil when it timed out.
    static func poll(_ descriptors: [Int32], milliseconds: Int32) -> (readable: [Int32], hungUp: Bool)? {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        #if canImport(Glibc)
        let ready = Glibc.poll(&entries, nfds_t(entries.count), milliseconds)
        #else
        let ready = Darwin.poll(&entries, nfds_t(entries.count), milliseconds)
        #endif
        guard ready != 0 else { return nil }
        let hungUp = entries.contains { $0.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 }
        return (entries.filter { $0.revents & Int16(POLLIN) != 0 }.map(\.fd), hungUp)
    }

    /// Reads what is there (at most `capacity` bytes) from a readable descriptor.
    static func readAvailable(_ descriptor: Int32, capacity: Int) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: capacity)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? Array(chunk[..<count]) : []
    }

    /// Runs `body` with `descriptor` in non-canonical, no-echo mode (reads return at once),
    /// then puts the terminal settings back; nil when the descriptor is not a terminal.
    static func withRawInput<Result>(_ descriptor: Int32, _ body: () -> Result) -> Result? {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN
        raw.c_cc.5 = 0  // VTIME
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(descriptor, TCSANOW, &saved) }
        return body()
    }

    /// Wide characters need a UTF-8 locale; falls back to C.UTF-8 when the user's is not.
    static func useUTF8Locale() {
        if setlocale(LC_ALL, "") == nil || !localeIsUTF8() {
            setlocale(LC_ALL, "C.UTF-8")
        }
    }

    private static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// A parent may have started us with signals blocked (a thread pool's mask is
    /// inherited through exec); resize, suspend and quit must reach us all the same.
    static func unblockTerminalSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGWINCH, SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static let terminalStop = SIGTSTP

    /// Stops the process as Ctrl-Z would (SIGTSTP with its default action, so the shell
    /// says "Stopped"), and returns once it is continued (`fg`); the signal's handling is
    /// put back as it was.
    static func stopLikeCtrlZ() {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        var previous = sigaction()
        sigaction(SIGTSTP, &defaultAction, &previous)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        kill(getpid(), SIGTSTP)
        sigaction(SIGTSTP, &previous, nil)
    }

    /// Ignores `signal`'s default action (a dispatch source then reports it instead).
    static func ignore(_ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.signal(signal, SIG_IGN)
        #else
        _ = Darwin.signal(signal, SIG_IGN)
        #endif
    }
}

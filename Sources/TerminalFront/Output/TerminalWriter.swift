/// Bytes on their way to the terminal, written without ever blocking the frame loop.
///
/// A terminal is a consumer with a rate: xterm parsing sixel, a software-rendered kitty or
/// an SSH link take bytes far slower than a frame can make them, and a blocking `write(2)`
/// inside the commit stopped the whole loop, input included (issue 23: 600 ms frames over
/// 100 KB/s). Here every frame is appended to a pending buffer and handed to a
/// non-blocking descriptor of the terminal (an open file of its own, so the shell's stays
/// blocking) as fast as the terminal takes it: at once, between ticks while the loop waits
/// (`wait(until:)`), and before each frame. The presenter asks ``isBehind`` before it
/// draws and coalesces while it is (D-039).
///
/// With ``Delivery/thread`` (`--output-writer thread`; measured against these writes in
/// D-039) the bytes go to a `WriterThread` instead, which writes them as the terminal
/// takes them; everything else here is the same for both. The kernel's pty buffer (about
/// 16 KB) is invisible from this side (`TIOCOUTQ` reads 0 on a Linux pty), so what the
/// terminal takes is what these writes hand over.
///
/// Main thread only.
public final class TerminalWriter {
    /// -1: a sink that takes everything at once (headless runs).
    private let descriptor: Int32
    /// Set when a thread of its own does the writing (``Delivery/thread``).
    private let thread: WriterThread?

    /// Who writes to the terminal.
    public enum Delivery: String, Sendable, CaseIterable {
        /// The main thread, with non-blocking writes, between and after its frames.
        case nonBlocking = "non-blocking"
        /// A thread of its own, handed each frame's bytes (`WriterThread`).
        case thread

        /// What the app uses: the main thread's own writes. Measured side by side (D-039),
        /// a thread takes the `write` calls out of the commit (p99 0.1–0.6 ms lower behind a
        /// slow pty reader), but in xterm on two cores it is not always scheduled before the
        /// next tick, and the terminal hitches it causes double the hitch ratio.
        public static let recommended = Delivery.nonBlocking
    }
    private var pending: [UInt8] = []
    private var head = 0
    /// Bytes the terminal has taken so far.
    public var bytesTaken: Int { thread?.written ?? written }
    /// Bytes the main thread's own writes handed to the terminal (with a writer thread:
    /// what the thread had written at the last ``pump()``).
    private var written = 0
    /// The most bytes ever waiting here at once.
    public private(set) var pendingBytesMax = 0
    /// The terminal failed a write (it went away): everything pending was dropped.
    public private(set) var hasFailed = false

    /// A writer to `descriptor`, which must be non-blocking; nil makes a sink.
    public init(descriptor: Int32?, delivery: Delivery = .nonBlocking) {
        self.descriptor = descriptor ?? -1
        thread = descriptor.flatMap { delivery == .thread ? WriterThread(descriptor: $0) : nil }
        pending.reserveCapacity(1 << 16)
    }

    /// Bytes handed over but not yet taken by the terminal.
    public var pendingBytes: Int { pending.count - head + (thread?.outstanding ?? 0) }

    /// The terminal has not taken everything handed over: a new frame would queue behind it.
    public var isBehind: Bool { pendingBytes > 0 }

    /// Appends `bytes` and writes what the terminal takes now.
    public func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        enqueue(bytes[...])
    }

    /// Appends `bytes` for a later ``pump()`` (the frame loop's, right after its commit).
    public func queue(_ bytes: [UInt8]) {
        enqueue(bytes[...], writingNow: false)
    }

    /// Appends `bytes` to what the terminal is to get and, with `writingNow`, hands over what it takes at once without blocking.
    public func enqueue(_ bytes: ArraySlice<UInt8>, writingNow: Bool = true) {
        guard !bytes.isEmpty, !hasFailed else { return }
        if descriptor < 0 {
            written += bytes.count
            return
        }
        pending.append(contentsOf: bytes)
        if writingNow { pump() }
    }

    /// Writes what the terminal takes now without waiting; returns how many bytes that was.
    @discardableResult
    public func pump() -> Int {
        if let thread { return handOver(to: thread) }
        guard descriptor >= 0, head < pending.count else { return 0 }
        var taken = 0
        pending.withUnsafeBytes { bytes in
            while head < bytes.count {
                switch Platform.writeSome(UnsafeRawBufferPointer(rebasing: bytes[head...]), to: descriptor) {
                case .wrote(let count) where count > 0:
                    head += count
                    taken += count
                case .wrote, .full:
                    return
                case .failed:
                    hasFailed = true
                    return
                }
            }
        }
        written += taken
        pendingBytesMax = max(pendingBytesMax, pendingBytes)
        if hasFailed || head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1 << 16 && head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return taken
    }

    /// ``pump()`` with a writer thread: what is pending goes to it, and what it wrote since
    /// is counted as taken.
    private func handOver(to thread: WriterThread) -> Int {
        if head < pending.count {
            thread.hand(pending[head...])
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        let taken = thread.written - written
        written += taken
        pendingBytesMax = max(pendingBytesMax, pendingBytes)
        if thread.hasFailed { hasFailed = true }
        return taken
    }

    /// Writes as the terminal takes bytes until nothing is pending or `deadline` (a time on
    /// the clock `now` reads) has passed. Sleeps in `poll`, never spins.
    public func wait(until deadline: Duration, now: () -> Duration) {
        while isBehind, !hasFailed {
            let remaining = deadline - now()
            guard remaining > .zero else { return }
            let milliseconds = Int32(min(max((remaining.nanoseconds + 999_999) / 1_000_000, 1), 1000))
            if let thread {
                _ = Platform.poll([thread.progress.descriptor], milliseconds: milliseconds)
                thread.progress.clear()
                pump()
            } else if Platform.waitWritable(descriptor, milliseconds: milliseconds) {
                pump()
            }
        }
    }

    /// The end of a session: gives the terminal until `deadline` to take what is pending,
    /// then drops the rest and, if a frame was cut, sends what closes it (CAN ends an escape
    /// sequence or a sixel/kitty string, then synchronized output off), so the terminal is
    /// left parsing plain text before the reset that follows. Quitting never waits on a slow
    /// link for longer than that.
    public func finish(until deadline: Duration, now: () -> Duration) {
        wait(until: deadline, now: now)
        guard isBehind, !hasFailed else { return }
        let cut = head > 0 || bytesTaken > 0
        pending.removeAll(keepingCapacity: false)
        head = 0
        thread?.dropOutstanding()
        if cut {
            pending = Self.closeCutFrame
            wait(until: now() + .milliseconds(200), now: now)
            pending.removeAll()
            head = 0
            thread?.dropOutstanding()  // nothing of it may follow ncurses' own restore
        }
    }

    /// CAN, ST, synchronized output off.
    static let closeCutFrame: [UInt8] = [0x18, 0x1B, 0x5C] + Array("\u{1B}[?2026l".utf8)
}

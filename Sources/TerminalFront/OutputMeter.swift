/// Counts the bytes this thread writes, from the kernel's own ledger
/// (`/proc/thread-self/io`, field `wchar`).
///
/// Why not a wrapped `FILE`: ncurses 6 flushes its buffer with `write(2)` on the stream's
/// descriptor, so a `fopencookie` stream sees nothing (tried: 0 bytes for a full paint).
/// Every byte ncurses and the presenter send goes through `write` on the main thread, so the
/// difference of this counter around a frame is exactly that frame's output, interactive or
/// headless alike. Main thread only: it must be read on the thread that writes.
public final class OutputMeter {
    private let descriptor: Int32

    /// Nil where the kernel does not keep per-thread I/O accounting.
    public init?() {
        descriptor = Platform.openForReading("/proc/thread-self/io")
        guard descriptor >= 0, Self.read(descriptor) != nil else { return nil }
    }

    deinit { if descriptor >= 0 { Platform.close(descriptor) } }

    /// Bytes written by the calling thread since it started.
    public var bytesWritten: Int { Self.read(descriptor) ?? 0 }

    private static func read(_ descriptor: Int32) -> Int? {
        guard let bytes = Platform.readFromStart(descriptor, capacity: 512) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") }) else { return nil }
        return Int(line.dropFirst("wchar:".count).trimmingPrefix(" "))
    }
}

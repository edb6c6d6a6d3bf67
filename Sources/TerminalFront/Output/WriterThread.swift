import CoreKit
import Dispatch

/// Feeds the terminal from a thread of its own: the frame loop hands each frame's bytes to
/// a serial queue, whose thread writes them, sleeping in `poll` while the terminal is full.
/// The main thread never calls `write`; it takes a short lock to hand bytes over and to
/// read how many are still outstanding (issue 23 asked for both ways measured: D-039).
///
/// `--output-writer thread` selects it; the app's default stays ``TerminalWriter``'s own
/// writes from the main thread (``TerminalWriter/Delivery/recommended`` says why).
final class WriterThread: Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "TerminalWriter.thread", qos: .userInteractive)
    /// Bytes handed over and not yet written, the running total written, whether a write
    /// failed, and whether outstanding bytes are to be dropped (quitting over a slow link).
    private let state = Lock<(outstanding: Int, written: Int, failed: Bool, dropping: Bool)>((0, 0, false, false))
    /// Signalled after every write, so the main thread can sleep until progress.
    let progress = WakeSignal()

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    var outstanding: Int { state.withLock { $0.outstanding } }
    var written: Int { state.withLock { $0.written } }
    var hasFailed: Bool { state.withLock { $0.failed } }

    /// Queues `bytes` behind everything handed over before (a copy: the caller's buffer is
    /// reused for the next frame).
    func hand(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        let chunk = Array(bytes)
        state.withLock { $0.outstanding += chunk.count }
        queue.async { [self] in write(chunk) }
    }

    /// Drops everything not yet written and returns once the queue has stopped writing.
    func dropOutstanding() {
        state.withLock { $0.dropping = true }
        progress.signal()
        queue.sync {}
        state.withLock { state in
            state.dropping = false
            state.outstanding = 0
        }
    }

    private func write(_ chunk: [UInt8]) {
        var offset = 0
        chunk.withUnsafeBytes { bytes in
            while offset < bytes.count {
                if state.withLock({ $0.dropping || $0.failed }) { return }
                switch Platform.writeSome(UnsafeRawBufferPointer(rebasing: bytes[offset...]), to: descriptor) {
                case .wrote(let count) where count > 0:
                    offset += count
                    state.withLock { state in
                        state.outstanding -= count
                        state.written += count
                    }
                    progress.signal()
                case .wrote, .full:
                    _ = Platform.waitWritable(descriptor, milliseconds: 50)
                case .failed:
                    state.withLock { $0.failed = true }
                    progress.signal()
                    return
                }
            }
        }
    }
}

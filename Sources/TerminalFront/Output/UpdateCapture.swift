/// The file in memory ncurses writes its updates into, so that no ncurses call ever waits
/// on the terminal: `doupdate` ends with a `write(2)` on ncurses' descriptor, which
/// ``TerminalSession`` points here between start and end. The presenter takes what was
/// written after each update and hands it to the ``TerminalWriter`` as part of the frame.
///
/// A memory file (`memfd_create`) rather than a pipe: writes to it never block and never
/// fill, whatever the size of a frame. Reading it costs a `pread` and two `lseek`s a frame.
/// Main thread only.
final class UpdateCapture {
    /// The capture file; ncurses' descriptor is made to refer to it.
    let descriptor: Int32

    init?() {
        guard let descriptor = Platform.makeCaptureFile() else { return nil }
        self.descriptor = descriptor
    }

    deinit { Platform.close(descriptor) }

    /// Appends what ncurses wrote since the last call to `buffer`, and empties the file.
    func take(into buffer: inout [UInt8]) {
        let length = Platform.currentOffset(descriptor)
        guard length > 0 else { return }
        Platform.appendFromStart(of: descriptor, count: length, to: &buffer)
        Platform.rewind(descriptor)
    }
}

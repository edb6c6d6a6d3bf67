#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal whether it supports synchronized output (DEC private mode 2026),
/// before ncurses takes over the input.
///
/// The query is DECRQM for mode 2026 followed by Primary Device Attributes, which every
/// terminal answers: reading stops at that answer, so a terminal that ignores DECRQM costs
/// one round trip, not a timeout. Reply `CSI ? 2026 ; Ps $ y` with Ps 1 (set) or 2 (reset)
/// means supported; 0 (unknown) or 4 (permanently reset), or no reply, means not.
enum SyncOutputProbe {
    static func query(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeoutMilliseconds: Int32 = 250) -> Bool {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return false }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN
        raw.c_cc.5 = 0  // VTIME
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return false }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }
        let query = Array("\u{1B}[?2026$p\u{1B}[c".utf8)
        guard query.withUnsafeBytes({ write(output, $0.baseAddress, $0.count) }) == query.count else { return false }
        var reply: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        while !Self.hasDeviceAttributes(reply) {
            let left = Int((deadline - .now) / .milliseconds(1))
            guard left > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left)) > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            reply += chunk[..<count]
        }
        return supportsMode2026(reply: reply)
    }

    /// True when `reply` holds a DECRPM for mode 2026 saying set or reset.
    static func supportsMode2026(reply: [UInt8]) -> Bool {
        for body in bodies(of: reply) where body.last == UInt8(ascii: "y") {
            let text = String(decoding: body, as: UTF8.self)
            if text == "2026;1$y" || text == "2026;2$y" { return true }
        }
        return false
    }

    /// A DA1 reply (`CSI ? … c`) has arrived.
    static func hasDeviceAttributes(_ reply: [UInt8]) -> Bool {
        bodies(of: reply).contains { $0.last == UInt8(ascii: "c") }
    }

    /// The parameter and final bytes of every complete `ESC [ ?` sequence in `bytes`.
    static func bodies(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var index = 0
        while index + 2 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "["), bytes[index + 2] == UInt8(ascii: "?") else {
                index += 1
                continue
            }
            let start = index + 3
            // Parameters are digits, ';' and '$'; the first other byte ends the sequence.
            guard let end = bytes[start...].firstIndex(where: { !(0x30...0x39).contains($0) && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "$") }) else { break }
            result.append(bytes[start...end])
            index = end + 1
        }
        return result
    }
}

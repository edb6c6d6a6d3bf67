/// Asks the terminal whether it supports synchronized output (DEC private mode 2026),
/// before ncurses takes over the input.
///
/// The query is DECRQM for mode 2026 followed by Primary Device Attributes, which every
/// terminal answers: reading stops at that answer, so a terminal that ignores DECRQM costs
/// one round trip, not a timeout. Reply `CSI ? 2026 ; Ps $ y` with Ps 1 (set) or 2 (reset)
/// means supported; 0 (unknown) or 4 (permanently reset), or no reply, means not.
enum SyncOutputProbe {
    static func query(input: Int32 = Platform.standardInput, output: Int32 = Platform.standardOutput, timeoutMilliseconds: Int32 = 250) -> Bool {
        Platform.withRawInput(input) {
            guard Platform.write(Array("\u{1B}[?2026$p\u{1B}[c".utf8), to: output) else { return false }
            var reply: [UInt8] = []
            let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
            while !Self.hasDeviceAttributes(reply) {
                let left = Int((deadline - .now) / .milliseconds(1))
                guard left > 0, Platform.poll([input], milliseconds: Int32(left)) != nil else { break }
                let chunk = Platform.readAvailable(input, capacity: 256)
                guard !chunk.isEmpty else { break }
                reply += chunk
            }
            return supportsMode2026(reply: reply)
        } ?? false
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

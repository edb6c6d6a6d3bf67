/// Asks the terminal, once at start and before ncurses takes over the input, what it can
/// do: synchronized output (DEC private mode 2026), kitty graphics, sixel, and the size of
/// its text area in pixels (so the size of a cell).
///
/// The queries go out in one write, Primary Device Attributes (DA1) last: every terminal
/// answers DA1, and answers in order, so reading stops at that answer and a terminal that
/// ignores the other queries costs one round trip, not a timeout.
/// - `CSI ? 2026 $ p` (DECRQM): `CSI ? 2026 ; Ps $ y`, Ps 1 (set) or 2 (reset) means
///   supported; 0 (unknown) or 4 (permanently reset), or no reply, means not.
/// - `APC G i=31,s=1,v=1,a=q,t=d,f=24 ; AAAA ST` (kitty's graphics query: a 1×1 image that
///   is checked, not stored): `APC G i=31 ; OK ST` means kitty graphics.
/// - `CSI ? 1 ; 1 ; 0 S` (XTSMGRAPHICS, read colour registers): `CSI ? 1 ; 0 ; n S`, the
///   colours a sixel image may use.
/// - `CSI 14 t` (XTWINOPS): `CSI 4 ; height ; width t`, the text area in pixels (xterm
///   answers only with window operations allowed; the kernel's `TIOCGWINSZ` is asked
///   too, see ``TerminalSession``).
/// - `CSI c` (DA1): `CSI ? 62 ; 4 ; … c`, attribute 4 meaning sixel graphics.
public enum TerminalProbe {
    /// What the terminal answered.
    public struct Answers: Sendable, Equatable {
        public var synchronizedOutput = false
        public var kittyGraphics = false
        public var sixel = false
        /// Colour registers a sixel image may use, when the terminal said.
        public var sixelColorRegisters: Int?
        /// The text area's size in pixels, when the terminal said.
        public var textAreaPixels: (width: Int, height: Int)?

        public init() {}

        public static func == (a: Answers, b: Answers) -> Bool {
            a.synchronizedOutput == b.synchronizedOutput && a.kittyGraphics == b.kittyGraphics && a.sixel == b.sixel
                && a.sixelColorRegisters == b.sixelColorRegisters
                && a.textAreaPixels?.width == b.textAreaPixels?.width && a.textAreaPixels?.height == b.textAreaPixels?.height
        }
    }

    /// The queries, in the order they are sent. The Linux console implements no APC and
    /// would print the kitty query as text, so `graphics` is false there.
    public static func queries(graphics: Bool) -> [UInt8] {
        Array("\u{1B}[?2026$p\(graphics ? "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[?1;1;0S\u{1B}[14t" : "")\u{1B}[c".utf8)
    }

    /// Whether a terminal of this TERM can be asked about graphics without harm.
    public static func mayAskAboutGraphics(term: String) -> Bool { !term.hasPrefix("linux") && term != "dumb" }

    static func query(term: String, input: Int32 = Platform.standardInput, output: Int32 = Platform.standardOutput, timeoutMilliseconds: Int32 = 250) -> Answers {
        Platform.withRawInput(input) {
            guard Platform.write(queries(graphics: mayAskAboutGraphics(term: term)), to: output) else { return Answers() }
            var reply: [UInt8] = []
            let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
            while !Self.hasDeviceAttributes(reply) {
                let left = Int((deadline - .now) / .milliseconds(1))
                guard left > 0, Platform.poll([input], milliseconds: Int32(left)) != nil else { break }
                let chunk = Platform.readAvailable(input, capacity: 256)
                guard !chunk.isEmpty else { break }
                reply += chunk
            }
            return answers(in: reply)
        } ?? Answers()
    }

    /// Everything `reply` says.
    public static func answers(in reply: [UInt8]) -> Answers {
        var answers = Answers()
        answers.synchronizedOutput = supportsMode2026(reply: reply)
        answers.kittyGraphics = hasKittyGraphics(reply: reply)
        answers.sixel = hasSixel(reply: reply)
        answers.sixelColorRegisters = sixelColorRegisters(reply: reply)
        answers.textAreaPixels = textAreaPixels(reply: reply)
        return answers
    }

    /// True when `reply` holds a DECRPM for mode 2026 saying set or reset.
    static func supportsMode2026(reply: [UInt8]) -> Bool {
        privateBodies(of: reply).contains { body in
            let text = String(decoding: body, as: UTF8.self)
            return text == "2026;1$y" || text == "2026;2$y"
        }
    }

    /// A DA1 reply (`CSI ? … c`) has arrived.
    static func hasDeviceAttributes(_ reply: [UInt8]) -> Bool {
        privateBodies(of: reply).contains { $0.last == UInt8(ascii: "c") }
    }

    /// The DA1 reply lists attribute 4: sixel graphics.
    static func hasSixel(reply: [UInt8]) -> Bool {
        privateBodies(of: reply).contains { body in
            body.last == UInt8(ascii: "c") && body.dropLast().split(separator: UInt8(ascii: ";")).contains { $0.elementsEqual(Array("4".utf8)) }
        }
    }

    /// `CSI ? 1 ; 0 ; n S`: the query for colour registers succeeded with `n`.
    static func sixelColorRegisters(reply: [UInt8]) -> Int? {
        for body in privateBodies(of: reply) where body.last == UInt8(ascii: "S") {
            let fields = body.dropLast().split(separator: UInt8(ascii: ";")).map { Int(String(decoding: $0, as: UTF8.self)) }
            if fields.count == 3, fields[0] == 1, fields[1] == 0, let count = fields[2], count > 0 { return count }
        }
        return nil
    }

    /// The kitty graphics query was answered OK.
    static func hasKittyGraphics(reply: [UInt8]) -> Bool {
        apcBodies(of: reply).contains { String(decoding: $0, as: UTF8.self) == "Gi=31;OK" }
    }

    /// `CSI 4 ; height ; width t`: the text area in pixels.
    static func textAreaPixels(reply: [UInt8]) -> (width: Int, height: Int)? {
        var index = 0
        while index + 2 < reply.count {
            defer { index += 1 }
            guard reply[index] == 0x1B, reply[index + 1] == UInt8(ascii: "["), reply[index + 2] == UInt8(ascii: "4") else { continue }
            guard let end = reply[(index + 2)...].firstIndex(where: { !(0x30...0x39).contains($0) && $0 != UInt8(ascii: ";") }),
                  reply[end] == UInt8(ascii: "t") else { continue }
            let fields = reply[(index + 2)..<end].split(separator: UInt8(ascii: ";")).map { Int(String(decoding: $0, as: UTF8.self)) }
            if fields.count == 3, fields[0] == 4, let height = fields[1], let width = fields[2], width > 0, height > 0 { return (width, height) }
        }
        return nil
    }

    /// The parameter and final bytes of every complete `ESC [ ?` sequence in `bytes`.
    static func privateBodies(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
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

    /// The bodies of every complete `ESC _ … ESC \` (APC) in `bytes`.
    static func apcBodies(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "_") else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            guard end + 1 < bytes.count else { break }
            result.append(bytes[(index + 2)..<end])
            index = end + 2
        }
        return result
    }
}

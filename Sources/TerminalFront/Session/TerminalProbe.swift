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
/// - `CSI > q` (XTVERSION): `DCS > | name(version) ST`, which terminal this is (kitty's
///   Unicode placeholders need kitty 0.28 or later).
/// - `OSC 11 ; ? ST`: `OSC 11 ; rgb:RRRR/GGGG/BBBB ST`, the background colour (a light or a
///   dark theme for the chrome).
/// - `CSI c` (DA1): `CSI ? 62 ; 4 ; … c`, attribute 4 meaning sixel graphics.
///
/// Inside tmux or GNU screen only DECRQM, OSC 11 (tmux) and DA1 are sent: tmux took the
/// kitty query, an APC string, for a pane title and kept it after the app quit (issue 24).
public enum TerminalProbe {
    /// A colour as the terminal reported it, each component 0…1.
    public struct RGB: Sendable, Equatable {
        /// Red, 0…1.
        public var red: Double
        /// Green, 0…1.
        public var green: Double
        /// Blue, 0…1.
        public var blue: Double
        /// A colour of these components, each 0…1.
        public init(red: Double, green: Double, blue: Double) { (self.red, self.green, self.blue) = (red, green, blue) }
        /// Relative luminance (sRGB weights) over one half.
        public var isLight: Bool { 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.5 }
    }

    /// Where the app runs: what each kind of terminal may be asked.
    public struct Venue: Sendable, Equatable {
        /// Graphics queries (kitty, XTSMGRAPHICS, XTWINOPS, XTVERSION): not on the Linux
        /// console (no APC: it prints the query) nor inside a multiplexer.
        public var graphics: Bool
        /// The background colour (OSC 11): not on the Linux console nor inside GNU screen.
        public var background: Bool

        /// - Parameters: `term` is TERM; `insideTmux` is whether `$TMUX` is set.
        public init(term: String, insideTmux: Bool) {
            let console = term.hasPrefix("linux") || term == "dumb" || term.isEmpty
            let screen = term.hasPrefix("screen") && !insideTmux
            let multiplexer = insideTmux || term.hasPrefix("screen") || term.hasPrefix("tmux")
            graphics = !console && !multiplexer
            background = !console && !screen
        }
    }

    /// What the terminal answered.
    public struct Answers: Sendable, Equatable {
        /// DEC mode 2026 (synchronized output) is known to the terminal.
        public var synchronizedOutput = false
        /// The terminal answered kitty's graphics query.
        public var kittyGraphics = false
        /// The terminal listed sixel graphics in its device attributes.
        public var sixel = false
        /// The terminal answered Primary Device Attributes (every real terminal does).
        public var deviceAttributes = false
        /// Colour registers a sixel image may use, when the terminal said.
        public var sixelColorRegisters: Int?
        /// The text area's size in pixels, when the terminal said.
        public var textAreaPixels: (width: Int, height: Int)?
        /// XTVERSION's answer (`kitty(0.26.5)`, `XTerm(379)`, …), when the terminal gave one.
        public var version: String?
        /// The background colour, when the terminal said (OSC 11).
        public var background: RGB?

        /// Nothing answered.
        public init() {}

        public static func == (a: Answers, b: Answers) -> Bool {
            a.synchronizedOutput == b.synchronizedOutput && a.kittyGraphics == b.kittyGraphics && a.sixel == b.sixel
                && a.deviceAttributes == b.deviceAttributes
                && a.sixelColorRegisters == b.sixelColorRegisters
                && a.textAreaPixels?.width == b.textAreaPixels?.width && a.textAreaPixels?.height == b.textAreaPixels?.height
                && a.version == b.version && a.background == b.background
        }
    }

    /// The queries for `venue`, in the order they are sent (DA1 last).
    public static func queries(for venue: Venue) -> [UInt8] {
        let graphics = venue.graphics ? "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[?1;1;0S\u{1B}[14t\u{1B}[>q" : ""
        let background = venue.background ? "\u{1B}]11;?\u{1B}\\" : ""
        return Array("\u{1B}[?2026$p\(graphics)\(background)\u{1B}[c".utf8)
    }

    static func query(venue: Venue, input: Int32 = Platform.standardInput, output: Int32 = Platform.standardOutput, timeoutMilliseconds: Int32 = 250) -> Answers {
        Platform.withRawInput(input) {
            guard Platform.write(queries(for: venue), to: output) else { return Answers() }
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
        answers.deviceAttributes = hasDeviceAttributes(reply)
        answers.sixelColorRegisters = sixelColorRegisters(reply: reply)
        answers.textAreaPixels = textAreaPixels(reply: reply)
        answers.version = version(reply: reply)
        answers.background = background(reply: reply)
        return answers
    }

    /// `DCS > | text ST`: the terminal's name and version.
    static func version(reply: [UInt8]) -> String? {
        for body in stringBodies(of: reply, introducer: UInt8(ascii: "P")) where body.starts(with: Array(">|".utf8)) {
            let text = String(decoding: body.dropFirst(2), as: UTF8.self)
            return String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        }
        return nil
    }

    /// `OSC 11 ; rgb:R/G/B` (ST or BEL): the background colour, each component 1–4 hex digits.
    static func background(reply: [UInt8]) -> RGB? {
        for body in stringBodies(of: reply, introducer: UInt8(ascii: "]")) where body.starts(with: Array("11;rgb:".utf8)) {
            let parts = String(decoding: body.dropFirst(7), as: UTF8.self).split(separator: "/")
            guard parts.count == 3 else { continue }
            let values = parts.compactMap { part -> Double? in
                guard (1...4).contains(part.count), let value = UInt32(part, radix: 16) else { return nil }
                return Double(value) / Double((1 << (4 * part.count)) - 1)
            }
            if values.count == 3 { return RGB(red: values[0], green: values[1], blue: values[2]) }
        }
        return nil
    }

    /// The bodies of every complete `ESC <introducer> … (ESC \ | BEL)` string in `bytes`.
    static func stringBodies(of bytes: [UInt8], introducer: UInt8) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == introducer else {
                index += 1
                continue
            }
            var end = index + 2
            while end < bytes.count, bytes[end] != 0x07, !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            guard end < bytes.count, bytes[end] == 0x07 || end + 1 < bytes.count else { break }
            result.append(bytes[(index + 2)..<end])
            index = end + (bytes[end] == 0x07 ? 1 : 2)
        }
        return result
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

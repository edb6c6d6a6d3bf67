import CellCanvas

/// Links (OSC 8) drawn over the cells ncurses wrote: ncurses knows nothing of them, so the
/// presenter writes each link's cells again, inside `ESC ] 8 ; ; URL ST … ESC ] 8 ; ; ST`,
/// after ncurses' update, cursor and attributes saved and restored around them (DECSC,
/// DECRC) so ncurses' idea of the cursor stays true. A terminal that does not draw links
/// gets the plain text ncurses wrote (``isSupported(environment:)`` decides).
public enum Hyperlinks {
    /// Whether the terminal draws OSC 8 links, from what its environment says: kitty, foot,
    /// WezTerm, Ghostty, iTerm2, VS Code's terminal, VTE (GNOME Terminal, Tilix …) 0.50 and
    /// later, Konsole 21.08 and later. Not xterm, and not inside tmux or screen (tmux 3.3
    /// swallows the sequence). `DESTINATIONS_HYPERLINKS=1` or `0` decides instead.
    public static func isSupported(environment: [String: String]) -> Bool {
        if let forced = environment["DESTINATIONS_HYPERLINKS"], forced == "0" || forced == "1" { return forced == "1" }
        if environment["TMUX"] != nil || environment["STY"] != nil { return false }
        let term = environment["TERM"] ?? ""
        if ["kitty", "foot", "wezterm", "ghostty"].contains(where: term.contains) { return true }
        if ["iTerm.app", "WezTerm", "vscode", "ghostty"].contains(environment["TERM_PROGRAM"] ?? "") { return true }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        if let konsole = environment["KONSOLE_VERSION"].flatMap(Int.init), konsole >= 210800 { return true }
        return false
    }

    /// The bytes that draw `links` of `canvas` as links: their cells written again in their
    /// own colours and attributes (as `capability` shows them, the way ncurses did), underlined.
    public static func overlay(_ links: [Canvas.Link], of canvas: Canvas, capability: ColorCapability = .palette256) -> [UInt8] {
        guard !links.isEmpty else { return [] }
        var out: [UInt8] = Array("\u{1B}7".utf8)
        for link in links where link.y < canvas.rows {
            out += Array("\u{1B}[\(link.y + 1);\(link.x + 1)H\u{1B}]8;;\(link.url)\u{1B}\\".utf8)
            var style: CellStyle?
            for x in link.x..<min(link.x + link.width, canvas.columns) {
                let cell = canvas[x, link.y]
                if cell.isContinuation { continue }
                if cell.style != style {
                    style = cell.style
                    out += Array(sgr(cell.style, capability: capability).utf8)
                }
                cell.forEachScalar { scalar in out += Array(String(Character(Unicode.Scalar(scalar) ?? " ")).utf8) }
            }
            out += Array("\u{1B}]8;;\u{1B}\\".utf8)
        }
        out += Array("\u{1B}[0m\u{1B}8".utf8)
        return out
    }

    /// `ESC [ 0 ; 4 … m` for `style`, underlined: its attributes, and its colours as
    /// `capability` numbers them (none on a terminal without colour).
    static func sgr(_ style: CellStyle, capability: ColorCapability) -> String {
        var parts = ["0", "4"]
        if style.bold { parts.append("1") }
        if style.dim { parts.append("2") }
        if style.reverse { parts.append("7") }
        for (color, base) in [(style.foreground, 30), (style.background, 40)] {
            let number = Int(capability.number(for: color))
            guard number >= 0 else { continue }
            switch capability {
            case .direct: parts.append("\(base + 8);2;\(number >> 16 & 0xFF);\(number >> 8 & 0xFF);\(number & 0xFF)")
            case _ where number < 8: parts.append("\(base + number)")
            case _ where number < 16: parts.append("\(base + 60 + number - 8)")
            default: parts.append("\(base + 8);5;\(number)")
            }
        }
        return "\u{1B}[" + parts.joined(separator: ";") + "m"
    }
}

import ArgumentParser
import ImagePipeline
import TerminalFront

/// `--graphics`: how thumbnails reach the screen.
enum GraphicsRequest: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Ask the terminal: kitty graphics when it answers kitty's query (placeholders where
    /// its XTVERSION says it draws them and it has 24-bit colour, else direct placement),
    /// else iTerm2's images when `TERM_PROGRAM` or `LC_TERMINAL` names iTerm2, else sixel
    /// when its device attributes list sixel (and it says its cell size), else symbols.
    case auto
    /// kitty's graphics protocol with Unicode placeholders (kitty from 0.28, Ghostty).
    case kitty
    /// kitty's graphics protocol by direct placement: a placement per visible row of a
    /// thumbnail, moved and deleted as the grid scrolls (kitty before 0.28, WezTerm, Konsole).
    case kittyPlacement = "kitty-placement"
    /// DEC sixel, one strip per row of cells (xterm -ti vt340, foot, WezTerm, mlterm,
    /// Windows Terminal, konsole …).
    case sixel
    /// iTerm2's inline images, one PNG per row of cells (iTerm2, WezTerm, mintty …).
    case iterm2
    /// A mosaic of symbol cells (chafa): any terminal.
    case symbols
}

/// The graphics a run uses, and why: from the flag (or `DESTINATIONS_GRAPHICS`), what the
/// terminal answered at start, its colours and whether tmux is in between.
struct GraphicsChoice {
    enum Mode: String { case kitty, kittyPlacement = "kitty-placement", sixel, iterm2, symbols }

    let mode: Mode
    /// Said in the header after the mode when the choice is not the obvious one.
    let note: String?
    /// Terminal pixels per cell (kitty images are made at exactly the cells' size).
    let cellPixels: (width: Int, height: Int)
    let throughTmux: Bool
    /// Symbols in 24-bit colour, drawn by the presenter (the terminal has direct colour).
    var truecolorSymbols = false
    /// Colours a sixel image may use (the terminal's registers, at most
    /// ``SixelEncoder/defaultColors``).
    var sixelColors = SixelEncoder.defaultColors

    /// A cell's size in pixels when the terminal does not say (a common 10×20 font).
    static let usualCellPixels = (width: 10, height: 20)

    /// - Parameters:
    ///   - size: the terminal's size in cells, to turn the text area's pixels into a cell's.
    ///   - headless: no terminal answered anything.
    ///   - terminalProgram: what the environment says the terminal is (`TERM_PROGRAM`, else
    ///     `LC_TERMINAL`): iTerm2 answers no query that names its image protocol.
    static func resolve(_ request: GraphicsRequest, probed: TerminalProbe.Answers, capability: ColorCapability,
                        size: (rows: Int, columns: Int), insideTmux: Bool, headless: Bool, terminalProgram: String? = nil) -> GraphicsChoice {
        var cell = usualCellPixels
        var measured = false
        if let pixels = probed.textAreaPixels, size.columns > 0, size.rows > 0, pixels.width >= size.columns, pixels.height >= size.rows {
            cell = (pixels.width / size.columns, pixels.height / size.rows)
            measured = true
        }
        func symbols(_ note: String?) -> GraphicsChoice {
            var choice = GraphicsChoice(mode: .symbols, note: note, cellPixels: cell, throughTmux: false)
            choice.truecolorSymbols = capability == .direct
            return choice
        }
        func sixel(_ note: String?) -> GraphicsChoice {
            var choice = GraphicsChoice(mode: .sixel, note: note, cellPixels: cell, throughTmux: false)
            // 16 at most: chosen by median cut, they draw a thumbnail closer than 128 popular
            // colours did, in fewer bytes (SixelEncoder.defaultColors, D-077).
            choice.sixelColors = max(2, min(probed.sixelColorRegisters ?? 256, SixelEncoder.defaultColors))
            return choice
        }
        let iterm2 = GraphicsChoice(mode: .iterm2, note: nil, cellPixels: cell, throughTmux: false)
        func placement(_ note: String?) -> GraphicsChoice {
            // The terminal scales each placement to its cells: a guessed cell size only blurs.
            GraphicsChoice(mode: .kittyPlacement, note: note ?? (measured || headless ? nil : "cell size unknown"), cellPixels: cell, throughTmux: false)
        }
        switch request {
        case .symbols:
            return symbols(nil)
        case .iterm2:
            // The terminal scales each row's PNG to its cells: the cell size need not be known.
            return iterm2
        case .sixel:
            // Strips are cut at the cell's height: a guessed height shows seams or overlaps.
            if measured || headless { return sixel(insideTmux ? "through tmux" : nil) }
            return sixel("cell size unknown: guessed \(cell.width)×\(cell.height) pixels")
        case .kitty:
            // The image id is the placeholder's 24-bit foreground colour.
            guard capability == .direct else { return symbols("kitty needs 24-bit colour: COLORTERM=truecolor") }
            return GraphicsChoice(mode: .kitty, note: insideTmux ? "through tmux" : nil, cellPixels: cell, throughTmux: insideTmux)
        case .kittyPlacement:
            // A placement lands at the outer terminal's cursor, which tmux does not move with
            // the pane's: it would be drawn anywhere.
            if insideTmux { return symbols("kitty placements cannot pass through tmux") }
            return placement(nil)
        case .auto:
            if headless { return symbols(nil) }
            // tmux answers the query itself (it does not pass it on), and passes images on
            // only with `allow-passthrough on`: asked for by --graphics kitty, not guessed.
            if insideTmux { return symbols(nil) }
            let placeholders = Self.drawsUnicodePlaceholders(version: probed.version)
            if probed.kittyGraphics && capability == .direct && placeholders { return GraphicsChoice(mode: .kitty, note: nil, cellPixels: cell, throughTmux: false) }
            // Placements need neither placeholders nor 24-bit colour (no id in a colour).
            if probed.kittyGraphics { return placement(placeholders ? "no 24-bit colour for placeholders" : nil) }
            if terminalProgram == "iTerm.app" || terminalProgram == "iTerm2" { return iterm2 }
            if probed.sixel && measured { return sixel(nil) }
            if probed.sixel { return symbols("sixel terminal that does not say its cell size") }
            return symbols(nil)
        }
    }

    /// Whether the terminal draws kitty's Unicode placeholder cells (U+10EEEE): kitty from
    /// 0.28 and Ghostty, by their XTVERSION answer. kitty 0.26 (Debian 12's), WezTerm and
    /// Konsole implement kitty graphics without them and show each placeholder as an unknown
    /// glyph (they get direct placements); a terminal that does not say its version is not
    /// trusted with them either.
    static func drawsUnicodePlaceholders(version: String?) -> Bool {
        guard let version = version?.lowercased() else { return false }
        if version.hasPrefix("ghostty") { return true }
        guard version.hasPrefix("kitty(") else { return false }
        let numbers = version.dropFirst("kitty(".count).prefix { $0 != ")" }.split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return false }
        return numbers[0] > 0 || numbers[1] >= 28
    }

    /// What the image preparers make.
    var output: ImageOutput {
        switch mode {
        case .kitty: .kitty(cellPixels: cellPixels, throughTmux: throughTmux)
        case .kittyPlacement: .kittyPlacement(cellPixels: cellPixels)
        case .sixel: .sixel(cellPixels: cellPixels, colors: sixelColors)
        case .iterm2: .iterm2(cellPixels: cellPixels)
        case .symbols: truecolorSymbols ? .truecolorSymbols : .symbols
        }
    }

    /// Strip bytes a second the grid sends at most (a frame's share each frame); past it
    /// image rows show their fallback until later frames. Sixel and inline images: about
    /// what xterm parses and draws in a second here, so a fast scroll shows symbols and
    /// the pixels follow as the motion settles. 24-bit symbols: less, so that a page of
    /// new thumbnails does not make the frame after a key three times the bytes of a
    /// palette frame (their palette fallback shows for a few frames instead).
    var pixelBytesPerSecond: Int { output.graphics.pixelBytesPerSecond }

    /// The header's words for it.
    var label: String {
        let name = truecolorSymbols && mode == .symbols ? "symbols 24-bit" : mode.rawValue
        return note.map { "\(name) (\($0))" } ?? name
    }
}

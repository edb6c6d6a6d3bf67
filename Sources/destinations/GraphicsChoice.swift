import ArgumentParser
import ImagePipeline
import TerminalFront

/// `--graphics`: how thumbnails reach the screen.
enum GraphicsRequest: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Ask the terminal (kitty graphics when it answers the query; symbols otherwise).
    case auto
    /// kitty's graphics protocol with Unicode placeholders (kitty, Ghostty, WezTerm …).
    case kitty
    /// A mosaic of symbol cells (chafa): any terminal.
    case symbols
}

/// The graphics a run uses, and why: from the flag (or `DESTINATIONS_GRAPHICS`), what the
/// terminal answered at start, its colours and whether tmux is in between.
struct GraphicsChoice {
    enum Mode: String { case kitty, symbols }

    let mode: Mode
    /// Said in the header after the mode when the choice is not the obvious one.
    let note: String?
    /// Terminal pixels per cell (kitty images are made at exactly the cells' size).
    let cellPixels: (width: Int, height: Int)
    let throughTmux: Bool

    /// A cell's size in pixels when the terminal does not say (a common 10×20 font).
    static let usualCellPixels = (width: 10, height: 20)

    /// - Parameters:
    ///   - size: the terminal's size in cells, to turn the text area's pixels into a cell's.
    ///   - headless: no terminal answered anything.
    static func resolve(_ request: GraphicsRequest, probed: TerminalProbe.Answers, capability: ColorCapability,
                        size: (rows: Int, columns: Int), insideTmux: Bool, headless: Bool) -> GraphicsChoice {
        var cell = usualCellPixels
        if let pixels = probed.textAreaPixels, size.columns > 0, size.rows > 0, pixels.width >= size.columns, pixels.height >= size.rows {
            cell = (pixels.width / size.columns, pixels.height / size.rows)
        }
        func symbols(_ note: String?) -> GraphicsChoice { GraphicsChoice(mode: .symbols, note: note, cellPixels: cell, throughTmux: false) }
        switch request {
        case .symbols:
            return symbols(nil)
        case .kitty:
            // The image id is the placeholder's 24-bit foreground colour.
            guard capability == .direct else { return symbols("kitty needs 24-bit colour: COLORTERM=truecolor") }
            return GraphicsChoice(mode: .kitty, note: insideTmux ? "through tmux" : nil, cellPixels: cell, throughTmux: insideTmux)
        case .auto:
            if headless { return symbols(nil) }
            // tmux answers the query itself (it does not pass it on), and passes images on
            // only with `allow-passthrough on`: asked for by --graphics kitty, not guessed.
            if insideTmux { return symbols(nil) }
            guard probed.kittyGraphics else { return symbols(nil) }
            guard capability == .direct else { return symbols("kitty terminal without 24-bit colour") }
            return GraphicsChoice(mode: .kitty, note: nil, cellPixels: cell, throughTmux: false)
        }
    }

    /// What the image preparers make.
    var output: ImageOutput {
        mode == .kitty ? .kitty(cellPixels: cellPixels, throughTmux: throughTmux) : .symbols
    }

    /// The header's words for it.
    var label: String { note.map { "\(mode.rawValue) (\($0))" } ?? mode.rawValue }
}

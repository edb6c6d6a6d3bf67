import CellCanvas
@testable import destinations
import TerminalFront
import Testing

/// Legible on every background (issue 24): no visible character is drawn on a background
/// the app set with the terminal's own foreground, in either theme, with the HUD, the help
/// and the detail view open; `auto` follows what the terminal says of its background.
@Suite struct ThemeTests {
    /// Visible characters on a set background with the default foreground, as "x,y 'c'".
    static func unpairedText(in canvas: Canvas) -> [String] {
        var found: [String] = []
        for y in 0..<canvas.rows {
            for x in 0..<canvas.columns {
                let cell = canvas[x, y]
                guard !cell.isContinuation, cell.style.background != .default, cell.style.foreground == .default,
                      !cell.style.reverse, String(cell.glyph) != " " else { continue }
                found.append("\(x),\(y) '\(cell.glyph)'")
            }
        }
        return found
    }

    @Test(arguments: [ThemeRequest.dark, .light])
    func everyTextOnAPanelHasItsOwnForeground(theme: ThemeRequest) throws {
        var options = GridSimulation.options(nil, seconds: 60)
        options.theme = theme
        let simulation = try GridSimulation(options, showsHUD: true)
        #expect(simulation.app.view.theme.isLight == (theme == .light))
        simulation.settle()
        #expect(Self.unpairedText(in: simulation.backend.screen).isEmpty, "grid and HUD: \(Self.unpairedText(in: simulation.backend.screen).prefix(5))")
        simulation.press(.character("?"))
        #expect(simulation.screen.contains("any key closes"))
        #expect(Self.unpairedText(in: simulation.backend.screen).isEmpty, "help: \(Self.unpairedText(in: simulation.backend.screen).prefix(5))")
        simulation.press(.escape)
        simulation.press(.enter)
        #expect(simulation.app.view.detail != nil)
        #expect(Self.unpairedText(in: simulation.backend.screen).isEmpty, "detail: \(Self.unpairedText(in: simulation.backend.screen).prefix(5))")
    }

    @Test func autoFollowsTheTerminalsBackground() {
        #expect(Theme.resolve(.auto, background: TerminalProbe.RGB(red: 1, green: 1, blue: 0.95)).isLight)
        #expect(!Theme.resolve(.auto, background: TerminalProbe.RGB(red: 0.1, green: 0.1, blue: 0.12)).isLight)
        #expect(!Theme.resolve(.auto, background: nil).isLight, "a terminal that does not say: dark")
        #expect(!Theme.resolve(.dark, background: TerminalProbe.RGB(red: 1, green: 1, blue: 1)).isLight, "the flag wins")
    }

    @Test func theDarkThemeWasWhatTheAppShowedBefore() {
        // The HUD's panel stays 235 and its text is now pale grey, not the terminal's own.
        #expect(Theme.dark.panel.background == .palette(235) && Theme.dark.panel.foreground == .palette(252))
    }

    /// The help panel names every key on an 80×24 screen (the smallest a person is likely
    /// to have), and keeps `q` where even fewer rows leave room for some keys only.
    @Test func theHelpPanelFitsEveryKeyInEightyByTwentyFour() {
        for (rows, all) in [(24, true), (48, true), (16, false)] {
            var canvas = Canvas(columns: 80, rows: rows)
            HelpPanel.draw(theme: .dark, into: &canvas)
            let text = canvas.rowTexts.joined(separator: "\n")
            let named = HelpPanel.lines.filter { text.contains($0.1.prefix(30)) }.count
            #expect(all ? named == HelpPanel.lines.count : named > 0 && named < HelpPanel.lines.count, "\(rows) rows: \(named) keys")
            #expect(text.contains("quit and print the summary") && text.contains("any key closes"), "\(rows) rows")
        }
    }
}

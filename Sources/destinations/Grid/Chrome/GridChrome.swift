import CellCanvas
import CoreKit
import RenderLoop

/// What surrounds the grid, drawn from the model and the facts the loop gathers: the
/// header and footer bars, the HUD and the help panel. Functions of their input only.
enum GridChrome {
    static let headerRows = 1, footerRows = 1, hudRows = 4

    /// The smallest terminal the grid draws in: a cell's height and the bars.
    static func fits(rows: Int, columns: Int) -> Bool { rows >= PostCell.height + 2 && columns >= 30 }

    static func drawTooSmall(into canvas: inout Canvas) {
        canvas.draw("Terminal too small (\(canvas.columns)×\(canvas.rows)); need 30×\(PostCell.height + 2).", at: Point(x: 0, y: 0),
                    style: CellStyle(foreground: .yellow, bold: true))
    }

    /// Where the grid draws: below the header, above the footer and the HUD.
    static func gridArea(rows: Int, columns: Int, showsHUD: Bool) -> Rect {
        let hud = showsHUD ? hudRows + 2 : 0
        return Rect(x: 0, y: headerRows, width: columns, height: max(0, rows - headerRows - footerRows - hud))
    }

    /// What the header says beyond the model: the loop gathers it each frame.
    struct HeaderFacts {
        var refreshRate: RefreshRate
        var graphicsLabel: String
        var cellCost: Duration
        /// Posts shown and what the feed, the folder or a query is doing.
        var posts: String
        var skippedFiles: Int
        var scenario: String?
    }

    static func drawBars(_ model: GridModel, _ facts: HeaderFacts, into canvas: inout Canvas) {
        let bar = CellStyle(reverse: true)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        let skipped = facts.skippedFiles == 0 ? "" : "  (\(facts.skippedFiles) files skipped)"
        let cost = facts.cellCost > .zero ? "  cell cost \(fixed(facts.cellCost.milliseconds, 1)) ms" : ""
        let scenario = facts.scenario.map { "  scenario \($0)" } ?? ""
        let images = "images \(model.imageMode.rawValue) as \(model.imageMode == .sync ? "symbols" : facts.graphicsLabel)"
        canvas.draw(" destinations  \(facts.refreshRate)  prefetch \(model.toggles.prefetch ? "on" : "off")  \(images)\(cost)  \(facts.posts)\(skipped)\(scenario)",
                    at: Point(x: 0, y: 0), style: bar)
        let footer = canvas.rows - 1
        canvas.fill(Rect(x: 0, y: footer, width: canvas.columns, height: 1), with: Cell(" ", style: bar))
        let hints = model.isEditingFilter ? " filter: \(model.filter)▏  Enter keep  Esc clear"
            : " arrows/hjkl select  Enter open  PgUp/PgDn page  J/K fling  / filter\(model.filter.isEmpty ? "" : " '\(model.filter)'")  s sort (\(model.sortOrder.rawValue))  L like  ? help  q quit"
        canvas.draw(hints, at: Point(x: 0, y: footer), style: bar)
    }
}

import CellCanvas

/// The keys, over the grid (`?`; any key closes it).
enum HelpPanel {
    static let lines: [(String, String)] = [
        ("arrows  h j k l", "move the selection"),
        ("PgDn  PgUp  Space", "page down / up"),
        ("J  K", "fling down / up (again: faster)"),
        ("Ctrl-E  Ctrl-Y  wheel", "scroll by rows"),
        ("g  G  Home  End", "top / bottom"),
        ("Enter", "open the post large (Esc back)"),
        ("/", "filter as you type (Enter keep, Esc clear)"),
        ("s", "sort: catalogue, title, region, likes"),
        ("L  +", "like the selected post, or take the like back"),
        ("x", "show a post behind its content warning / hide it"),
        ("X", "show every warned post / hide all (remembered)"),
        ("←  →  (open post)", "its other pictures, with their alt text"),
        ("o  (open post)", "its web page in your browser"),
        ("p", "prefetch in idle frame time on / off"),
        ("r", "refresh rate 60 / 120 Hz"),
        ("i", "images async / sync (decode in the commit)"),
        ("H", "hitch HUD on / off"),
        ("Ctrl-L", "redraw"),
        ("q", "quit and print the summary"),
    ]

    /// Centred, at most 64 columns. A blank row above and below the keys where the screen
    /// has room; on a short one (80×24 holds every key only without them) they go first,
    /// then the keys before the last, so that `q` is always there.
    static func draw(theme: Theme, into canvas: inout Canvas) {
        let padding = lines.count + 5 <= canvas.rows - 2 ? 1 : 0
        let width = min(canvas.columns - 2, 64), height = min(canvas.rows - 2, lines.count + 3 + 2 * padding)
        let box = Rect(x: (canvas.columns - width) / 2, y: (canvas.rows - height) / 2, width: width, height: height)
        let panel = theme.help
        canvas.fill(box, with: Cell(" ", style: panel))
        canvas.box(box, style: theme.helpBorder)
        canvas.draw(" Keys ", at: Point(x: box.x + 2, y: box.y), style: theme.helpBorder)
        for (index, line) in shown(room: height - 3 - 2 * padding).enumerated() {
            let y = box.y + 1 + padding + index
            canvas.draw(line.0, at: Point(x: box.x + 2, y: y), width: 22, style: theme.helpKey)
            canvas.draw(line.1, at: Point(x: box.x + 25, y: y), width: width - 27, style: panel)
        }
        canvas.draw("any key closes", at: Point(x: box.x + 2, y: box.maxY - 2), style: theme.helpDim)
    }

    /// The keys that fit in `room` rows: all, or the first ones and the last (quit).
    static func shown(room: Int) -> [(String, String)] {
        if room >= lines.count { return lines }
        if room <= 0 { return [] }
        return Array(lines.prefix(room - 1)) + [lines[lines.count - 1]]
    }
}

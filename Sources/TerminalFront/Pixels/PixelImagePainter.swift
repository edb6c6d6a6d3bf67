import CellCanvas

/// The part of ``CanvasPresenter`` that draws ``PixelCell`` cells from their images'
/// strips: sixel, iTerm2 inline images, or 24-bit symbol text (DECISIONS.md, D-035, D-036).
///
/// Such cells reach ncurses as a concealed letter (so ncurses erases what was there, and
/// writes over them when text comes back), then, after ncurses' update, the strip of every
/// image row with a changed cell is drawn at its left cell. A frame draws strips up to a
/// budget of bytes (the terminal must keep up: a fling exposes rows faster than a terminal
/// parses sixel); rows past it show the image's fallback (its symbol mosaic) and get their
/// strips in the next frames, so a fast scroll shows symbols and the pixels come once the
/// motion settles. Rows that only moved are moved by the terminal's scrolling, pixels and
/// all: ncurses scrolls them (`idlok`) as it does text. The letter is picked from the image,
/// row and column (``marker(for:)``), so two lines ncurses sees as equal show the same
/// pixels too, and its line-matching optimiser can never move a line onto one that only
/// looks the same. An image row is drawn only when all its cells are on screen and none is
/// covered, and not on the screen's last line when its strip may reach below its row.
///
/// Pictures whose strips linger (kitty placements, ``PixelImage/lingers``) are not covered
/// by the text written over them: the painter keeps where each placed row is
/// (``LingeringPlacements``), moves them as the terminal does when it scrolls a region, and
/// deletes, before the frame's new placements, every one whose cells show something else.
struct PixelImagePainter {
    /// The images the cells may name, by id (handed over by the image store, forgotten when
    /// they left its cache and no cell shows them).
    private(set) var images: [UInt32: PixelImage] = [:]
    /// Pixel cells that differ from the screen this frame.
    private var changed: [(x: Int, y: Int)] = []
    /// Cells shown as their fallback this frame: the presenter records these, not the
    /// pixel cells, as what the screen shows, so a later frame draws their strips.
    private(set) var fallbackShown: [(x: Int, y: Int, cell: Cell)] = []
    private var output: [UInt8] = []
    /// What the frame's images cost the terminal so far (their bytes and each one's price,
    /// ``price(of:)``), their bytes, and how many there are: strips, and whole pictures
    /// (each counts once).
    private(set) var planned = (cost: 0, bytes: 0, images: 0)
    /// Images the last frame drew: strips, and whole pictures (each counts once).
    var stripsInLastFrame: Int { planned.images }
    /// What an image costs the terminal beside its bytes, in bytes, as learned from its
    /// answers (``ParseCostModel``); nil: each image's own prior,
    /// ``PixelImage/costPerImage``.
    var imagePrice: Int?

    /// The price of one of `image`'s images beside its bytes.
    private func price(of image: PixelImage) -> Int { imagePrice ?? image.costPerImage }
    /// Images drawn by all frames so far: whole pictures, and strips (a row each).
    var sent = (whole: 0, strips: 0)
    /// Why the last frame left image rows as their fallback (not because they cannot be
    /// drawn): for want of budget, or waiting while the content scrolls for their picture
    /// to be whole on the screen (D-079). Either way another frame is needed; only the first
    /// says the terminal could have taken more.
    private(set) var heldBack = (forBudget: false, whileScrolling: false)
    /// The last frame left image rows as their fallback for want of budget.
    var deferredInLastFrame: Bool { heldBack.forBudget }
    /// Where lingering strips are on screen, and the deletions this frame sends first.
    private(set) var lingering = LingeringPlacements()
    /// Lingering image rows decided this frame, by their left cell: drawn, or not.
    private var decided: [LingeringPlacements.Position: Bool] = [:]
    /// Some defined image lingers: a cleared screen must delete their placements.
    private var anyLingers = false

    mutating func define(_ image: PixelImage) {
        images[image.id] = image
        if image.lingers { anyLingers = true }
    }

    mutating func forget(_ id: UInt32) {
        images[id] = nil
        lingering.forget(image: id)
    }

    /// The frame starts from a cleared screen: every lingering placement goes too.
    mutating func screenErased() {
        if anyLingers { lingering.deleteAll() }
    }

    /// The terminal scrolls `rows` up by `by` (down when negative) this frame, before the
    /// strips: lingering placements inside move with them, and those pushed out are gone.
    mutating func scrolled(rows: Range<Int>, by: Int) {
        placeAgain += lingering.scroll(rows: rows, by: by)
    }

    /// Lingering image rows the terminal did not move with the scroll (deleted instead):
    /// drawn again this frame although their cells did not change.
    private var placeAgain: [(position: LingeringPlacements.Position, columns: Int)] = []

    /// Bytes the frame sends before its cells: deletions of placements the terminal's scroll
    /// would leave behind.
    var preamble: [UInt8] { lingering.preamble }

    mutating func beginFrame() {
        changed.removeAll(keepingCapacity: true)
        fallbackShown.removeAll(keepingCapacity: true)
        output.removeAll(keepingCapacity: true)
        planned = (0, 0, 0)
        decided.removeAll(keepingCapacity: true)
        placeAgain.removeAll(keepingCapacity: true)
        lingering.beginFrame()
        heldBack = (false, false)
    }

    mutating func noteChanged(x: Int, y: Int) { changed.append((x, y)) }

    /// One image row on screen: the row `row` of image `id`, its left cell at (`left`, `y`).
    private struct StripPlace: Equatable {
        let y: Int, left: Int, id: UInt32, row: Int
    }

    /// Decides, for every image row with a changed cell, whether its strip is drawn (all
    /// its cells in place, not on the last line, and within `budget` bytes, the first row
    /// always) or its cells show their fallback; puts into ncurses a concealed marker or
    /// the fallback cell for each changed cell accordingly (`put`), and keeps the strips'
    /// bytes for ``takeStrips()``. Where the canvas has a ``Canvas/focus``, the rows nearest
    /// it get the budget first (the selected post's picture before the screen's corners);
    /// without one, from the top.
    ///
    /// While `scrolling`, a picture with a whole image that is only partly on the screen
    /// waits, as its fallback, until all of it is and goes as one image (D-079): entering
    /// row by row, it went as a strip a row, and a terminal pays for each image it parses.
    mutating func plan(_ canvas: Canvas, budget: Int, scrolling: Bool = false, put: (_ x: Int, _ y: Int, _ cell: Cell, _ concealed: Bool) -> Void) {
        if anyLingers { deleteStalePlacements(canvas) }
        let drawn = decideStrips(canvas, budget: budget, scrolling: scrolling)
        // Changed cells come row by row, left to right: the cells of one image row follow
        // each other, in the order `decideStrips` met them.
        var index = -1
        var current: (place: StripPlace, image: PixelImage?, drawn: Bool)?
        for (x, y) in changed {
            guard let (id, row, column) = PixelCell.decode(canvas[x, y]) else { continue }
            let place = StripPlace(y: y, left: x - column, id: id, row: row)
            if current?.place != place {
                index += 1
                let image = images[id].flatMap { row < $0.rows && column < $0.columns ? $0 : nil }
                current = (place, image, drawn[index])
                if image?.lingers == true { decided[.init(x: place.left, y: y)] = drawn[index] }
            }
            guard let group = current else { continue }
            if group.drawn {
                put(x, y, canvas[x, y], true)
            } else if let image = group.image, column < image.columns {
                let cell = image.fallback[row * image.columns + column]
                put(x, y, cell, false)
                fallbackShown.append((x, y, cell))
            } else {
                put(x, y, canvas[x, y], true)  // an image not handed over: blank
            }
        }
        if !output.isEmpty { output += Self.restoreCursor }
        if anyLingers { settleLingering(canvas) }
    }

    /// Whether each image row with a changed cell is drawn this frame, in the order the
    /// changed cells meet them: the budget goes to the rows nearest the canvas's focus
    /// first (by line, then by column), or from the top when it has none. A picture all of
    /// whose rows changed, each whole on the screen, goes as one image (``PixelImage/whole``)
    /// or not at all: a terminal pays for every image it parses (D-077).
    private mutating func decideStrips(_ canvas: Canvas, budget: Int, scrolling: Bool) -> [Bool] {
        var places: [(place: StripPlace, image: PixelImage?)] = []
        for (x, y) in changed {
            guard let (id, row, column) = PixelCell.decode(canvas[x, y]) else { continue }
            let place = StripPlace(y: y, left: x - column, id: id, row: row)
            guard places.last?.place != place else { continue }
            places.append((place, images[id].flatMap { row < $0.rows && column < $0.columns ? $0 : nil }))
        }
        let units = Self.units(of: places, in: canvas)
        var order = Array(units.indices)
        if let focus = canvas.focus {
            // Lines away from the focus (its nearest row), then columns away from its span.
            let distances = units.map { unit -> (Int, Int) in
                let place = places[unit[0]].place, columns = places[unit[0]].image?.columns ?? 1
                let lines = unit.map { abs(places[$0].place.y - focus.y) }.min() ?? 0
                let across = focus.x < place.left ? place.left - focus.x : max(0, focus.x - (place.left + columns - 1))
                return (lines, across)
            }
            order.sort { a, b in distances[a] != distances[b] ? distances[a] < distances[b] : a < b }
        }
        var drawn = [Bool](repeating: false, count: places.count)
        for index in order {
            let unit = units[index]
            let (place, image) = places[unit[0]]
            guard let image else { continue }
            // The whole picture within the budget, or as the frame's first image when it costs
            // at most ``firstWholeOvershoot`` budgets (a thumbnail at the slow start's budget
            // does); otherwise it waits for a frame where it goes first. A picture too large
            // for that (the size of the screen) goes as strips, each within what is left.
            if unit.count > 1, let whole = image.whole {
                let cost = whole.count + price(of: image)
                let atOnce = cost / Self.firstWholeOvershoot <= budget
                if budget > 0 && (planned.cost + cost <= budget || (output.isEmpty && atOnce)) {
                    planned = (planned.cost + cost, planned.bytes + whole.count, planned.images + 1)
                    send(whole, row: place.y, column: place.left)
                    sent.whole += 1
                    for member in unit { drawn[member] = true }
                    continue
                }
                if atOnce {
                    heldBack.forBudget = true
                    continue
                }
            }
            if scrolling, unit.count == 1, Self.waitsToBeWhole(image, price: price(of: image), top: place.y - place.row, left: place.left, in: canvas, budget: budget) {
                heldBack.whileScrolling = true
                continue
            }
            for member in unit {
                let row = places[member].place
                drawn[member] = drawStrip(of: image, row: row.row, left: row.left, y: row.y, in: canvas, budget: budget)
            }
        }
        return drawn
    }

    /// The frame's image rows grouped into what is sent as one: a picture with a whole image
    /// whose every row is among them, in order below each other and whole on the screen (its
    /// indices, first row first), and every other row alone.
    private static func units(of places: [(place: StripPlace, image: PixelImage?)], in canvas: Canvas) -> [[Int]] {
        var index: [Int: Int] = [:]
        func key(_ place: StripPlace) -> Int { place.y << 40 | place.left << 24 | Int(place.id) }
        for (i, entry) in places.enumerated() where entry.image?.whole != nil { index[key(entry.place)] = i }
        var member = [Bool](repeating: false, count: places.count)
        var units: [[Int]] = []
        for (i, entry) in places.enumerated() where !member[i] {
            guard let image = entry.image, image.whole != nil, !image.lingers, entry.place.row == 0, image.rows > 1,
                  !image.reachesBelowItsRow || entry.place.y + image.rows < canvas.rows else {
                units.append([i])
                continue
            }
            var rows = [i]
            for row in 1..<image.rows {
                let below = StripPlace(y: entry.place.y + row, left: entry.place.left, id: entry.place.id, row: row)
                guard let found = index[key(below)], places[found].place == below else { break }
                rows.append(found)
            }
            let whole = rows.count == image.rows && rows.allSatisfy { j in
                rowIsWhole(image, row: places[j].place.row, left: entry.place.left, y: places[j].place.y, in: canvas)
            }
            if whole {
                for j in rows { member[j] = true }
                units.append(rows)
            } else {
                units.append([i])
            }
        }
        return units
    }

    /// A row of `image` (its top line `top`, left cell `left`) that waits while the content
    /// scrolls: the picture goes as one image, and not all of it is on the screen yet (a
    /// row off it, covered, or on the last line where the image could reach below).
    /// Pictures of one row, those that linger (kitty: placed once, never per row), and those
    /// that could not go whole anyway (taller than the screen, or costing more than
    /// ``firstWholeOvershoot`` budgets: they go as strips) never wait.
    private static func waitsToBeWhole(_ image: PixelImage, price: Int, top: Int, left: Int, in canvas: Canvas, budget: Int) -> Bool {
        guard let whole = image.whole, !image.lingers, image.rows > 1,
              image.rows + (image.reachesBelowItsRow ? 1 : 0) <= canvas.rows,
              (whole.count + price) / firstWholeOvershoot <= budget else { return false }
        if image.reachesBelowItsRow && top + image.rows >= canvas.rows { return true }
        return !(0..<image.rows).allSatisfy { rowIsWhole(image, row: $0, left: left, y: top + $0, in: canvas) }
    }

    /// Before the frame's rows are planned: deletes every lingering placement whose cells
    /// no longer show its row whole (text over part of it, another picture), and plans the
    /// cells of its row again with those of the rows a scroll left to be placed again, so
    /// that what is left of a row shows its fallback, not the blank markers under a picture
    /// that is gone (kitty's terminfo has no `invis`: the markers would show as letters).
    private mutating func deleteStalePlacements(_ canvas: Canvas) {
        var again = placeAgain
        lingering.retain { position, placed in
            let stands = Self.stillShows(placed, at: position, in: canvas)
            if !stands { again.append((position, placed.columns)) }
            return stands
        }
        guard !again.isEmpty else { return }
        for (position, columns) in again where position.y < canvas.rows {
            for x in max(0, position.x)..<min(position.x + columns, canvas.columns) where PixelCell.decode(canvas[x, position.y]) != nil {
                changed.append((x, position.y))
            }
        }
        changed.sort { $0.y != $1.y ? $0.y < $1.y : $0.x < $1.x }
        var unique: [(x: Int, y: Int)] = []
        unique.reserveCapacity(changed.count)
        for cell in changed where unique.last.map({ $0 != cell }) ?? true { unique.append(cell) }
        changed = unique
    }

    /// After the frame's rows are planned: deletes the placements of rows planned again
    /// (replaced by a new placement, or by the fallback) and records the ones placed.
    private mutating func settleLingering(_ canvas: Canvas) {
        lingering.retain { position, _ in decided[position] == nil }
        for (position, drawn) in decided where drawn {
            guard let cell = PixelCell.decode(canvas[position.x, position.y]), let image = images[cell.image] else { continue }
            lingering.place(.init(image: cell.image, row: cell.row, columns: image.columns), at: position)
        }
    }

    /// The cells at `position` still show `placed`'s row, all of it.
    private static func stillShows(_ placed: LingeringPlacements.Placement, at position: LingeringPlacements.Position, in canvas: Canvas) -> Bool {
        showsRow(placed.row, of: placed.image, columns: placed.columns, left: position.x, y: position.y, in: canvas)
    }

    /// Appends the strip of `image`'s row `row` at (`left`, `y`) when it may be drawn there
    /// and fits the budget (the first always does); true when it was.
    private mutating func drawStrip(of image: PixelImage, row: Int, left: Int, y: Int, in canvas: Canvas, budget: Int) -> Bool {
        guard !image.reachesBelowItsRow || y + 1 < canvas.rows, Self.rowIsWhole(image, row: row, left: left, y: y, in: canvas) else { return false }
        let strip = image.strips[row]
        guard fits(strip.count + price(of: image), bytes: strip.count, budget: budget) else { return false }
        send(strip, row: y, column: left)
        sent.strips += 1
        return true
    }

    /// How many frames' budgets a whole picture sent first in a frame may cost: its rows as
    /// strips would cost the terminal more in all (each strip is an image), but a picture
    /// the size of the screen would hold the terminal for many frames at once.
    static let firstWholeOvershoot = 4

    /// An image of `cost` (its `bytes` and its price) fits this frame's `budget` with what
    /// was planned before it (the first image always does, unless the budget is 0: nothing
    /// may go, as while a parse request's answer is awaited); when not, the frame has
    /// deferred pixels.
    private mutating func fits(_ cost: Int, bytes: Int, budget: Int) -> Bool {
        guard budget > 0 && (output.isEmpty || planned.cost + cost <= budget) else {
            heldBack.forBudget = true
            return false
        }
        planned = (planned.cost + cost, planned.bytes + bytes, planned.images + 1)
        return true
    }

    /// Appends `image`'s bytes with the cursor moved to (`row`, `column`) first.
    private mutating func send(_ image: [UInt8], row: Int, column: Int) {
        if output.isEmpty { output += Self.saveCursor }
        output += Self.moveCursor(row: row, column: column)
        output += image
    }

    /// This frame deletes lingering placements (it must be sent even if no cell changed).
    var hasLingeringDeletions: Bool { !lingering.deletions.isEmpty }

    /// The bytes that draw the strips planned this frame (cursor and attributes saved and
    /// restored around them: ncurses knows nothing of them), after the deletions of
    /// lingering placements; empty when there are none.
    func takeStrips() -> [UInt8] {
        let deletions = lingering.deletions
        return deletions.isEmpty ? output : deletions + output
    }

    /// Every cell of `image`'s row `row` is at its place on line `y` from column `left`.
    private static func rowIsWhole(_ image: PixelImage, row: Int, left: Int, y: Int, in canvas: Canvas) -> Bool {
        showsRow(row, of: image.id, columns: image.columns, left: left, y: y, in: canvas)
    }

    /// Columns 0 to `columns` of image `id`'s row `row` are the cells of line `y` from `left`.
    private static func showsRow(_ row: Int, of id: UInt32, columns: Int, left: Int, y: Int, in canvas: Canvas) -> Bool {
        guard y >= 0, y < canvas.rows, left >= 0, left + columns <= canvas.columns else { return false }
        for column in 0..<columns {
            guard let cell = PixelCell.decode(canvas[left + column, y]), cell.image == id, cell.row == row, cell.column == column else { return false }
        }
        return true
    }

    /// The concealed letter ncurses keeps for a pixel cell: one of 52, from its image, row
    /// and column.
    static func marker(for cell: Cell) -> UInt32 {
        guard case .rgb(let id) = cell.style.foreground else { return 0x20 }
        let mixed = (((cell.code &* 2_654_435_761) ^ (id &* 40_503)) >> 8) % 52
        return mixed < 26 ? 0x41 + mixed : 0x61 + mixed - 26
    }

    static let saveCursor: [UInt8] = [0x1B, UInt8(ascii: "7")]
    static let restoreCursor: [UInt8] = [0x1B, UInt8(ascii: "8")]

    static func moveCursor(row: Int, column: Int) -> [UInt8] { Array("\u{1B}[\(row + 1);\(column + 1)H".utf8) }
}

import CellCanvas
import Testing
@testable import TerminalFront

/// kitty placements (strips that linger) checked against a model of the terminal: after
/// every frame, each image row the canvas shows whole has exactly one placement at its left
/// cell, of that row, and there is no other placement anywhere. The model applies what the
/// presenter sent (deletions before the update, the scroll it hinted, then deletions and
/// placements) as kitty does, once as kitty 0.26 (which does not move a placement on the
/// scrolling region's last row) and once as a terminal that does. Nested in `PresenterTests`
/// for its serialization (ncurses has one screen per process).
extension PresenterTests {
    @Suite struct LingeringPlacements {
        static let rows = 14, columns = 40
        /// Scrolls move rows 1..<13; row 0 and row 13 are the header and footer.
        static let region = 1..<13

        /// One image row placed with its left cell somewhere: which image and which row.
        struct Placed: Equatable {
            let image: UInt32
            let row: Int
        }

        /// The terminal's placements as kitty keeps them.
        struct KittyModel {
            var placed: [Point: Placed] = [:]
            /// kitty 0.26: a placement on the region's last row is not inside it, so a
            /// scroll does not move it.
            let lastRowStays: Bool

            mutating func apply(_ bytes: [UInt8]) {
                var cursor = Point(x: 0, y: 0)
                var index = 0
                while index < bytes.count {
                    guard bytes[index] == 0x1B, index + 1 < bytes.count else { index += 1; continue }
                    if bytes[index + 1] == UInt8(ascii: "[") {
                        // CSI row ; column H
                        var end = index + 2
                        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                        let numbers = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
                        if end < bytes.count, bytes[end] == UInt8(ascii: "H"), numbers.count == 2 { cursor = Point(x: numbers[1] - 1, y: numbers[0] - 1) }
                        index = end + 1
                    } else if bytes[index + 1] == UInt8(ascii: "_") {
                        var end = index + 2
                        while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                        command(String(decoding: bytes[(index + 3)..<end], as: UTF8.self), at: cursor)
                        index = end + 2
                    } else {
                        index += 2
                    }
                }
            }

            private mutating func command(_ body: String, at cursor: Point) {
                var keys: [String: String] = [:]
                for pair in body.split(separator: ";")[0].split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    keys[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
                }
                switch (keys["a"], keys["d"]) {
                case ("p", _):
                    let image = UInt32(keys["i"] ?? "") ?? 0, row = (Int(keys["y"] ?? "") ?? 0) / 20
                    #expect(keys["r"] == "1" && keys["C"] == "1", "one row, the cursor left where it is")
                    placed[cursor] = placed[cursor] == nil ? Placed(image: image, row: row) : Placed(image: 0, row: -1)  // stacked: wrong
                case ("d", "p"):
                    let x = (Int(keys["x"] ?? "") ?? 0) - 1, y = (Int(keys["y"] ?? "") ?? 0) - 1
                    placed = placed.filter { !($0.key.y == y && $0.key.x <= x && x < $0.key.x + 4) }
                case ("d", "a"):
                    placed.removeAll()
                default:
                    Issue.record("unexpected command \(body)")
                }
            }

            mutating func scroll(_ rows: Range<Int>, by: Int) {
                var moved: [Point: Placed] = [:]
                for (position, placement) in placed {
                    let inside = rows.contains(position.y) && !(lastRowStays && position.y == rows.upperBound - 1)
                    guard inside else {
                        moved[position] = placement
                        continue
                    }
                    let y = position.y - by
                    if rows.contains(y) { moved[Point(x: position.x, y: y)] = placement }
                }
                placed = moved
            }
        }

        /// Three 4×3-cell images that linger (the third shown twice on the page).
        static let images = (1...3).map { id in
            PixelImage(id: UInt32(id), columns: 4, strips: (0..<3).map { row in
                Array("\u{1B}_Ga=p,i=\(id),x=0,y=\(row * 20),w=40,h=20,c=4,r=1,C=1,q=2\u{1B}\\".utf8)
            }, fallback: [Cell](repeating: Cell("F"), count: 12), reachesBelowItsRow: false, lingers: true)
        }

        /// A page of text and images, seen from `top`; `cover` draws a box over some rows.
        static func canvas(top: Int, cover: Range<Int>? = nil, hidden: UInt32? = nil) -> Canvas {
            var canvas = Canvas(columns: columns, rows: rows)
            canvas.draw("header", at: Point(x: 0, y: 0))
            canvas.draw("footer", at: Point(x: 0, y: rows - 1))
            for y in region {
                let line = top + y
                canvas.draw("line \(line)", at: Point(x: 30, y: y))
                // An image every 5 lines, at two columns; ids 1, 2, 3, then 3 again.
                for (slot, x) in [2, 10].enumerated() {
                    let imageTop = line - line % 5
                    let row = line - imageTop
                    let id = UInt32([1, 2, 3, 3][(imageTop / 5 * 2 + slot) % 4])
                    guard row < 3, id != hidden else { continue }
                    for column in 0..<4 { canvas[x + column, y] = PixelCell.cell(image: id, row: row, column: column) }
                }
            }
            if let cover {
                for y in cover { canvas.draw(String(repeating: "#", count: 12), at: Point(x: 0, y: y)) }
            }
            return canvas
        }

        /// Every image row the canvas shows whole, by its left cell.
        static func wholeRows(_ canvas: Canvas) -> [Point: Placed] {
            var rows: [Point: Placed] = [:]
            for y in 0..<canvas.rows {
                for x in 0..<canvas.columns {
                    guard let cell = PixelCell.decode(canvas[x, y]), cell.column == 0, x + 4 <= canvas.columns else { continue }
                    let whole = (0..<4).allSatisfy { column in
                        PixelCell.decode(canvas[x + column, y]).map { $0.image == cell.image && $0.row == cell.row && $0.column == column } ?? false
                    }
                    if whole { rows[Point(x: x, y: y)] = Placed(image: cell.image, row: cell.row) }
                }
            }
            return rows
        }

        @Test(arguments: [true, false])
        func placementsAreExactlyTheWholeImageRowsAfterEveryFrame(lastRowStays: Bool) throws {
            try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: Self.images, forgotten: [])
                var model = KittyModel(lastRowStays: lastRowStays)
                var generator = SplitMix(seed: 7)
                var top = 0
                for step in 0..<400 {
                    let roll = generator.next() % 100
                    var hint: (rows: Range<Int>, by: Int)?
                    var cover: Range<Int>?
                    var hidden: UInt32?
                    if roll < 60 {
                        let by = Int(generator.next() % 9) - 4
                        top = max(0, top + by)
                        hint = by == 0 ? nil : (Self.region, by)
                    } else if roll < 75 {
                        let start = 2 + Int(generator.next() % 8)
                        cover = start..<(start + 2)
                    } else if roll < 85 {
                        hidden = UInt32(1 + generator.next() % 3)
                    } else if roll < 90 {
                        top += Int(generator.next() % 20)  // a jump: no hint, everything compared
                    } else if roll < 93 {
                        presenter.invalidate()
                    }
                    let canvas = Self.canvas(top: top, cover: cover, hidden: hidden)
                    presenter.present(canvas, scrolled: hint)
                    model.apply(presenter.lastPixelBytes.preamble)
                    if let hint, presenter.bytesInLastFrame > 0 { model.scroll(hint.rows, by: hint.by) }
                    model.apply(presenter.lastPixelBytes.strips)
                    let expected = Self.wholeRows(canvas)
                    #expect(model.placed == expected, "step \(step): top \(top), hint \(String(describing: hint)), cover \(String(describing: cover))")
                    if model.placed != expected { return }
                    // What is left of a row that is no longer whole shows its fallback, never
                    // the markers under a picture that is gone (kitty would show them as letters).
                    for y in 0..<Self.rows {
                        for x in 0..<Self.columns where PixelCell.decode(canvas[x, y]) != nil {
                            let placedOver = expected.contains { $0.key.y == y && $0.key.x <= x && x < $0.key.x + 4 }
                            #expect(placedOver || PresenterTests.PixelCells.glyph(x: x, y: y) == "F", "step \(step): cell \(x),\(y)")
                            if !placedOver && PresenterTests.PixelCells.glyph(x: x, y: y) != "F" { return }
                        }
                    }
                }
            }
        }
    }
}

/// A small seeded generator (the tests' own, so that a failure repeats).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

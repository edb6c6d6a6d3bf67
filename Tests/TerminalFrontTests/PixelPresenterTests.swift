import CellCanvas
import CNcursesw
import Testing
@testable import TerminalFront
#if canImport(Glibc)
import Glibc
#endif

/// Pixel cells (sixel) on a headless screen: which image rows a frame draws as strips,
/// which it leaves to the terminal's scrolling, and which show their symbol fallback.
/// Nested in `PresenterTests`, whose serialization covers it: ncurses has one screen per
/// process, and two suites presenting at once drew into each other's.
extension PresenterTests {
    @Suite struct PixelCells {
        static let rows = 12, columns = 40
        /// A 4×3-cell image whose strips are 1,000 bytes each and whose fallback reads "F".
        static let image = PixelImage(id: 7, columns: 4, strips: (0..<3).map { row in
            Array("\u{1B}P0;1;0q\"1;1;40;20#0;2;\(row);0;0".utf8) + [UInt8](repeating: 126, count: 1000 - 28) + [0x1B, 0x5C]
        }, fallback: [Cell](repeating: Cell("F"), count: 12), reachesBelowItsRow: true)

        static func canvas(imageTop top: Int, left: Int = 2) -> Canvas {
            var canvas = Canvas(columns: columns, rows: rows)
            for y in 0..<rows { canvas.draw("row \(y)", at: Point(x: 20, y: y)) }
            canvas.blit(PixelGrid(image: image), at: Point(x: left, y: top), clip: Rect(x: 0, y: 0, width: columns, height: rows))
            return canvas
        }

        struct PixelGrid: CellGrid {
            let image: PixelImage
            var gridColumns: Int { image.columns }
            var gridRows: Int { image.rows }
            func cell(column: Int, row: Int) -> Cell { PixelCell.cell(image: image.id, row: row, column: column) }
        }

        /// The bytes of a whole picture: 1,500 bytes of sixel, one image.
        static let wholeBytes = Array("\u{1B}P0;1;0q\"1;1;40;60#0;2;0;0;0".utf8) + [UInt8](repeating: 126, count: 1500) + [0x1B, 0x5C]

        /// A canvas showing `image` alone, its left cell at column 2 and its top at `top`.
        static func canvas(showing image: PixelImage, top: Int) -> Canvas {
            var canvas = Canvas(columns: columns, rows: rows)
            canvas.blit(PixelGrid(image: image), at: Point(x: 2, y: top), clip: Rect(x: 0, y: 0, width: columns, height: rows))
            return canvas
        }

        static func glyph(x: Int, y: Int) -> Character {
            Unicode.Scalar(UInt32(cnc_glyph_at(cnc_stdscr(), Int32(y), Int32(x)))).map(Character.init) ?? "?"
        }

        func withPresenter(_ body: (CanvasPresenter) throws -> Void) throws {
            try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: [Self.image], forgotten: [])
                try body(presenter)
            }
        }

        @Test func rowsAreDrawnOnceAndScrolledByTheTerminal() throws {
            try withPresenter { presenter in
                presenter.present(Self.canvas(imageTop: 4))
                #expect(presenter.pixelStripsInLastFrame == 3 && presenter.bytesInLastFrame > 3000)
                #expect(Self.glyph(x: 2, y: 4).isLetter && Self.glyph(x: 2, y: 4) != "F", "a concealed marker, not text")
                presenter.present(Self.canvas(imageTop: 4))
                #expect(presenter.pixelStripsInLastFrame == 0 && presenter.bytesInLastFrame < 32, "nothing changed, nothing sent")
                // Two rows up: the terminal moves the pixels; no strip is sent again.
                presenter.present(Self.canvas(imageTop: 2), scrolled: (1..<11, 2))
                #expect(presenter.pixelStripsInLastFrame == 0 && presenter.bytesInLastFrame < 1000, "\(presenter.bytesInLastFrame) bytes")
                // Cut by the top: the rows still on screen stay; coming back down exposes row 0.
                presenter.present(Self.canvas(imageTop: -1), scrolled: (0..<12, 3))
                #expect(presenter.pixelStripsInLastFrame == 0)
                presenter.present(Self.canvas(imageTop: 0), scrolled: (0..<12, -1))
                #expect(presenter.pixelStripsInLastFrame == 1, "the one exposed image row")
                presenter.updatePixelImages(defined: [], forgotten: [7])
                #expect(presenter.pixelImageCount == 0)
            }
        }

        @Test func pastTheBudgetRowsShowTheirFallbackUntilLaterFrames() throws {
            try withPresenter { presenter in
                presenter.pixelBytesPerFrame = 1500
                presenter.present(Self.canvas(imageTop: 4))
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.hasDeferredPixels, "the first strip always goes; the rest wait")
                #expect(Self.glyph(x: 2, y: 5) == "F" && Self.glyph(x: 5, y: 6) == "F", "rows past the budget show the fallback")
                presenter.present(Self.canvas(imageTop: 4))
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.hasDeferredPixels)
                presenter.present(Self.canvas(imageTop: 4))
                #expect(presenter.pixelStripsInLastFrame == 1 && !presenter.hasDeferredPixels)
                #expect(Self.glyph(x: 2, y: 6) != "F", "the last row's pixels are drawn")
                presenter.present(Self.canvas(imageTop: 4))
                #expect(presenter.pixelStripsInLastFrame == 0 && presenter.bytesInLastFrame < 32)
            }
        }

        /// Issue 46: when not every row fits a frame, the ones nearest the canvas's focus
        /// (the selected cell) go first, the rest in the next frames, nearest first again.
        @Test func pastTheBudgetTheRowsNearestTheFocusGoFirst() throws {
            try withPresenter { presenter in
                presenter.pixelBytesPerFrame = 1500
                var canvas = Self.canvas(imageTop: 4)
                canvas.focus = Point(x: 3, y: 6)  // the image's last row
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 1)
                #expect(Self.glyph(x: 2, y: 6) != "F" && Self.glyph(x: 2, y: 4) == "F" && Self.glyph(x: 2, y: 5) == "F",
                        "the focused row's pixels first, the others their fallback")
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 1 && Self.glyph(x: 2, y: 5) != "F" && Self.glyph(x: 2, y: 4) == "F",
                        "then the next nearest")
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 1 && Self.glyph(x: 2, y: 4) != "F" && !presenter.hasDeferredPixels)
            }
        }

        /// D-077: a picture whose every row changes in a frame goes as its one whole image
        /// (a terminal pays per image); a row exposed alone goes as its strip.
        @Test func aPictureShownAllAtOnceIsOneImage() throws {
            let whole = Self.wholeBytes
            let image = PixelImage(id: 8, columns: 4, strips: Self.image.strips, fallback: Self.image.fallback, reachesBelowItsRow: true, whole: whole)
            try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: [image], forgotten: [])
                func canvas(top: Int) -> Canvas { Self.canvas(showing: image, top: top) }
                presenter.present(canvas(top: 4))
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.bytesInLastFrame > 1500 && presenter.bytesInLastFrame < 2500,
                        "one image of 1,500 bytes, not three strips of 1,000: \(presenter.bytesInLastFrame)")
                #expect(Self.glyph(x: 2, y: 6) != "F" && !presenter.hasDeferredPixels)
                // One row up: the terminal scrolls the pixels; the row that comes in at the top
                // is drawn alone, as its strip.
                presenter.present(canvas(top: 3), scrolled: (0..<12, 1))
                presenter.present(canvas(top: 2), scrolled: (0..<12, 1))
                presenter.present(canvas(top: -1), scrolled: (0..<12, 3))
                presenter.present(canvas(top: 0), scrolled: (0..<12, -1))
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.bytesInLastFrame < 1500, "row 0 alone: its strip")
                // On the screen's last lines: the image could reach below, so rows go alone.
                presenter.present(canvas(top: Self.rows - 3))
                #expect(presenter.pixelStripsInLastFrame == 2 && Self.glyph(x: 2, y: Self.rows - 1) == "F")
            }
        }

        /// D-079: while the content scrolls, a picture entering the screen shows its fallback
        /// until all of it is on the screen, then goes as its one image; at rest, the rows
        /// of a picture cut by the screen's edge go as strips.
        @Test func whileScrollingAPictureWaitsToBeWholeAndGoesAsOneImage() throws {
            let whole = Self.wholeBytes
            let image = PixelImage(id: 11, columns: 4, strips: Self.image.strips, fallback: Self.image.fallback, reachesBelowItsRow: true, whole: whole)
            try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: [image], forgotten: [])
                func canvas(top: Int) -> Canvas { Self.canvas(showing: image, top: top) }
                presenter.isScrolling = true
                presenter.present(canvas(top: Self.rows - 2))
                #expect(presenter.pixelStripsInLastFrame == 0 && presenter.hasDeferredPixels, "two rows in: the picture waits")
                #expect(Self.glyph(x: 2, y: Self.rows - 2) == "F", "its rows show the fallback")
                presenter.present(canvas(top: Self.rows - 3), scrolled: (0..<12, 1))
                #expect(presenter.pixelStripsInLastFrame == 0 && presenter.hasDeferredPixels, "all in, but on the last line: it waits")
                presenter.present(canvas(top: Self.rows - 4), scrolled: (0..<12, 1))
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.bytesInLastFrame > 1500 && presenter.bytesInLastFrame < 2500,
                        "whole on the screen: one image of 1,500 bytes, \(presenter.bytesInLastFrame)")
                #expect(Self.glyph(x: 2, y: Self.rows - 2) != "F" && !presenter.hasDeferredPixels)
                #expect(presenter.pixelImagesSent.whole == 1 && presenter.pixelImagesSent.strips == 0)
                // Leaving by the top while scrolling: nothing is sent again (the terminal
                // scrolls the pixels), and the rows still on screen keep them.
                presenter.present(canvas(top: -1), scrolled: (0..<12, Self.rows - 3))
                #expect(presenter.pixelStripsInLastFrame == 0 && !presenter.hasDeferredPixels)
                // At rest, a picture cut by the screen's edge goes as strips: row 0 alone (row 1
                // is on the last line, where its strip could reach below).
                presenter.updatePixelImages(defined: [], forgotten: [11])
                let again = PixelImage(id: 12, columns: 4, strips: Self.image.strips, fallback: Self.image.fallback, reachesBelowItsRow: true, whole: whole)
                presenter.updatePixelImages(defined: [again], forgotten: [])
                presenter.isScrolling = false
                var rest = Canvas(columns: Self.columns, rows: Self.rows)
                rest.blit(PixelGrid(image: again), at: Point(x: 2, y: Self.rows - 2), clip: Rect(x: 0, y: 0, width: Self.columns, height: Self.rows))
                presenter.present(rest)
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.bytesInLastFrame < 1500 && !presenter.hasDeferredPixels,
                        "at rest: row 0's strip, \(presenter.bytesInLastFrame) bytes")
            }
        }

        /// A whole picture goes first in a frame when it costs at most four budgets; one that
        /// costs more (a picture the size of the screen) goes as strips, the first always, and
        /// so it does while the content scrolls (D-079: waiting instead left a slow link's
        /// fling in symbols for nothing).
        @Test func aWholePictureTooLargeForAFrameGoesAsStrips() throws {
            let whole = Self.wholeBytes
            let image = PixelImage(id: 10, columns: 4, strips: Self.image.strips, fallback: Self.image.fallback, reachesBelowItsRow: true, whole: whole)
            for (budget, whole) in [(400, true), (300, false)] {
                try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                    presenter.enablePixelImages()
                    presenter.updatePixelImages(defined: [image], forgotten: [])
                    presenter.pixelBytesPerFrame = budget
                    var canvas = Canvas(columns: Self.columns, rows: Self.rows)
                    canvas.blit(PixelGrid(image: image), at: Point(x: 2, y: 4), clip: Rect(x: 0, y: 0, width: Self.columns, height: Self.rows))
                    presenter.present(canvas)
                    #expect(presenter.pixelStripsInLastFrame == 1, "budget \(budget)")
                    #expect(presenter.bytesInLastFrame > (whole ? 1500 : 1000) && presenter.bytesInLastFrame < (whole ? 2500 : 1500),
                            "budget \(budget): \(presenter.bytesInLastFrame) bytes")
                    #expect((Self.glyph(x: 2, y: 6) == "F") == !whole && Self.glyph(x: 2, y: 4) != "F",
                            "budget \(budget): the whole picture, or its first row and the fallback below")
                }
            }
            try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: [image], forgotten: [])
                presenter.pixelBytesPerFrame = 300
                presenter.isScrolling = true
                var canvas = Canvas(columns: Self.columns, rows: Self.rows)
                canvas.blit(PixelGrid(image: image), at: Point(x: 2, y: 4), clip: Rect(x: 0, y: 0, width: Self.columns, height: Self.rows))
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 1 && presenter.hasDeferredPixels && Self.glyph(x: 2, y: 4) != "F",
                        "scrolling: its first row goes, the rest wait for budget")
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 1 && Self.glyph(x: 2, y: 5) != "F", "then the next row")
                #expect(presenter.pixelImagesSent.whole == 0 && presenter.pixelImagesSent.strips == 2)
                // Entering the screen while scrolling, it does not wait to be whole: it could not
                // go whole anyway. Row 0 goes (row 1 is on the last line).
                var entering = Canvas(columns: Self.columns, rows: Self.rows)
                entering.blit(PixelGrid(image: image), at: Point(x: 2, y: Self.rows - 2), clip: Rect(x: 0, y: 0, width: Self.columns, height: Self.rows))
                presenter.present(entering)
                #expect(presenter.pixelStripsInLastFrame == 1 && Self.glyph(x: 2, y: Self.rows - 2) != "F", "no wait for what cannot go whole")
            }
        }

        /// D-077: the budget counts what the terminal's work on each image is worth, besides
        /// its bytes: two 1,000-byte strips fit 2,500 bytes, not when each image costs 1,000
        /// more. A price learned from the terminal's answers (``ParseCostModel``, D-081) takes
        /// the place of each image's prior, both ways; the parse request's receipt says the
        /// batch's cost, its bytes and its images, which is what the price is fitted from.
        @Test func theBudgetCountsEachImagesCostPriorOrLearned() throws {
            for (prior, learned, strips) in [(0, nil, 2), (1_000, nil, 1), (0, 1_000, 1), (1_000, 0, 2), (1_000, 200, 2)] as [(Int, Int?, Int)] {
                let image = PixelImage(id: 9, columns: 4, strips: Self.image.strips, fallback: Self.image.fallback, reachesBelowItsRow: true,
                                       costPerImage: prior)
                try Self.withPricedPresenter(showing: image, budget: 2_500, price: learned) { presenter in
                    var canvas = Canvas(columns: Self.columns, rows: Self.rows)
                    canvas.blit(PixelGrid(image: image), at: Point(x: 2, y: 4), clip: Rect(x: 0, y: 0, width: Self.columns, height: Self.rows))
                    presenter.present(canvas)
                    let label = "prior \(prior), learned \(String(describing: learned))"
                    #expect(presenter.pixelStripsInLastFrame == strips && presenter.hasDeferredPixels, "\(label)")
                    let receipt = presenter.takeReceipt()
                    let bytes = Self.image.strips[0..<strips].reduce(0) { $0 + $1.count }
                    #expect(receipt?.bytes == bytes && receipt?.images == strips && receipt?.cost == bytes + strips * (learned ?? prior), "\(label)")
                    #expect(presenter.takeReceipt() == nil, "taken once")
                }
            }
        }

        /// The learned price also decides whether a picture goes whole: at 2,000 bytes an
        /// image it still goes as the frame's first (within four budgets), at 8,000 it would
        /// cost more than four and its rows go as strips, the first now, the rest later. The
        /// receipt counts graphics sent between frames (kitty transmissions) as bytes.
        @Test func aLearnedPriceDecidesWhetherAPictureGoesWhole() throws {
            let image = PixelImage(id: 8, columns: 4, strips: Self.image.strips, fallback: Self.image.fallback, reachesBelowItsRow: true, whole: Self.wholeBytes)
            for (learned, whole, strips) in [(nil, 1, 0), (2_000, 1, 0), (8_000, 0, 1)] as [(Int?, Int, Int)] {
                try Self.withPricedPresenter(showing: image, budget: 2_000, price: learned) { presenter in
                    presenter.sendGraphics([UInt8](repeating: 0x20, count: 300))
                    presenter.present(Self.canvas(showing: image, top: 4))
                    let sent = presenter.pixelImagesSent
                    #expect(sent.whole == whole && sent.strips == strips, "learned \(String(describing: learned)): \(sent)")
                    let bytes = (whole == 1 ? Self.wholeBytes.count : Self.image.strips[0].count) + 300
                    let receipt = presenter.takeReceipt()
                    #expect(receipt?.bytes == bytes && receipt?.images == 1 && receipt?.cost == bytes + (learned ?? 0), "\(String(describing: receipt))")
                }
            }
        }

        /// A headless presenter that knows `image`, with a budget of `budget` cost units a
        /// frame, `price` as the learned price of an image, and a parse receipt asked for.
        static func withPricedPresenter(showing image: PixelImage, budget: Int, price: Int?, _ body: (CanvasPresenter) throws -> Void) throws {
            try PresenterTests.withHeadlessPresenter(rows: rows, columns: columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: [image], forgotten: [])
                presenter.pixelBytesPerFrame = budget
                presenter.imagePrice = price
                presenter.asksForParseReceipt = true
                try body(presenter)
            }
        }

        /// A budget of 0 (an answer to a parse request awaited) lets nothing through, not even
        /// the first strip; the next frame with a budget draws them.
        @Test func aBudgetOfNothingSendsNoStrip() throws {
            try PresenterTests.withHeadlessPresenter(rows: Self.rows, columns: Self.columns) { presenter in
                presenter.enablePixelImages()
                presenter.updatePixelImages(defined: [Self.image], forgotten: [])
                presenter.pixelBytesPerFrame = 0
                var canvas = Canvas(columns: Self.columns, rows: Self.rows)
                canvas.blit(PixelGrid(image: Self.image), at: Point(x: 2, y: 4), clip: Rect(x: 0, y: 0, width: Self.columns, height: Self.rows))
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 0 && presenter.hasDeferredPixels)
                presenter.pixelBytesPerFrame = 1
                presenter.present(canvas)
                #expect(presenter.pixelStripsInLastFrame == 1, "a budget of 1: the first goes")
            }
        }

        @Test func aRowThatCannotBeDrawnWholeShowsItsFallbackAndWaitsForNothing() throws {
            try withPresenter { presenter in
                var covered = Self.canvas(imageTop: 4)
                covered.draw("x", at: Point(x: 3, y: 5))  // one cell of image row 1 covered
                presenter.present(covered)
                #expect(presenter.pixelStripsInLastFrame == 2 && !presenter.hasDeferredPixels)
                #expect(Self.glyph(x: 2, y: 5) == "F" && Self.glyph(x: 3, y: 5) == "x")
                // The screen's last line: a strip's last band could reach below it.
                presenter.present(Self.canvas(imageTop: Self.rows - 3))
                #expect(Self.glyph(x: 2, y: Self.rows - 1) == "F" && !presenter.hasDeferredPixels)
                // Cut by the right edge: no strip for a partial row.
                presenter.present(Self.canvas(imageTop: 4, left: Self.columns - 2))
                #expect(presenter.pixelStripsInLastFrame == 0 && Self.glyph(x: Self.columns - 1, y: 4) == "F")
            }
        }
    }
}

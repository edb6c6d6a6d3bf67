import CellCanvas
import ImagePipeline
import Testing

@Suite struct ConverterTests {
    @Test(arguments: CellColorMode.allCases)
    func convertsToTheRequestedGridWithColours(mode: CellColorMode) throws {
        let preparer = ImagePreparer(colorMode: mode)
        let image = try preparer.prepare(AssetID(path: fixture("quadrants.jpg")), columns: 16, rows: 6)
        #expect(image.columns == 16 && image.rows == 6 && image.glyphs.count == 96)
        #expect(image.colorMode == mode)
        #expect(image.glyphs.allSatisfy { $0 >= 0x20 })
        if mode != .monochrome {
            // Four different quadrant colours must give several distinct cell colours.
            #expect(Set(image.background).count >= 3 || Set(image.foreground).count >= 3)
        }
        if mode == .truecolor {
            let topLeft = image.rawCell(column: 1, row: 1)
            let rgb = topLeft.glyph == " " ? topLeft.background : topLeft.foreground
            #expect(rgb >> 16 > 150 && rgb & 0xFF < 80, "the top-left cell is red: \(String(rgb, radix: 16))")
        }
        if mode == .palette240 {
            let outside = (image.background + image.foreground).filter { !(16...255).contains($0) && $0 != CellImage.noColor }
            #expect(outside.isEmpty, "indices outside 16...255: \(Set(outside)) glyphs \(Set(image.glyphs))")
        }
    }

    @Test func aPreparedImageBlitsIntoACanvasWithItsColours() throws {
        let image = try ImagePreparer(colorMode: .truecolor).prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 4)
        var canvas = Canvas(columns: 12, rows: 6)
        canvas.blit(image, at: Point(x: 2, y: 1))
        #expect(canvas[0, 0] == .blank)
        let cell = canvas[3, 1]
        #expect(cell.glyph == image.rawCell(column: 1, row: 0).glyph)
        guard case .rgb(let rgb) = cell.glyph == " " ? cell.style.background : cell.style.foreground else {
            Issue.record("truecolor cells carry RGB: \(cell.style)")
            return
        }
        #expect(rgb >> 16 > 150, "top-left quadrant is red")
        let indexed = try ImagePreparer(colorMode: .palette240).prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 4)
        var paletted = Canvas(columns: 8, rows: 4)
        paletted.blit(indexed, at: Point(x: 0, y: 0))
        #expect(paletted.cells.allSatisfy { if case .rgb = $0.style.background { false } else { true } })
    }

    /// Canvas cells (24 bytes each, the price of drawing by copying rows): a 40×12
    /// thumbnail is under 12 KB, so the default 64 MiB cache holds over 5,000.
    @Test func aThumbnailIsUnder12KBAndItsCostCountsItsCells() throws {
        let image = try ImagePreparer(colorMode: .truecolor).prepare(AssetID(path: fixture("quadrants.jpg")), columns: 40, rows: 12)
        #expect(image.byteCost <= 12 * 1024)
        #expect(image.byteCost >= image.cells.count * MemoryLayout<Cell>.stride)
    }
}

@Suite struct CacheTests {
    func image(_ cells: Int) -> CellImage {
        CellImage(columns: cells, rows: 1, colorMode: .truecolor, glyphs: .init(repeating: 0x20, count: cells),
                  foreground: .init(repeating: 0, count: cells), background: .init(repeating: 0, count: cells))
    }

    func key(_ name: String) -> PreparedImageKey { PreparedImageKey(asset: AssetID(path: name), columns: 1, rows: 1) }

    @Test func evictsLeastRecentlyUsedByCost() {
        let each = image(10).byteCost  // 184 bytes
        let cache = PreparedImageCache(limit: each * 3)
        cache.insert(image(10), for: key("a"))
        cache.insert(image(10), for: key("b"))
        cache.insert(image(10), for: key("c"))
        #expect(cache.image(for: key("a")) != nil)  // a is now the most recent
        cache.insert(image(10), for: key("d"))       // over the limit: b, the oldest, goes
        #expect(cache.keysByRecency == [key("d"), key("a"), key("c")])
        #expect(cache.image(for: key("b")) == nil)
        let counters = cache.counters
        #expect(counters.hits == 1 && counters.misses == 1 && counters.evictions == 1)
        #expect(counters.bytes == each * 3 && counters.count == 3)
    }

    @Test func aLargeImageEvictsSeveralAndAnOversizedOneIsNotKept() {
        let cache = PreparedImageCache(limit: image(30).byteCost)
        cache.insert(image(10), for: key("a"))
        cache.insert(image(10), for: key("b"))
        cache.insert(image(25), for: key("big"))
        #expect(cache.keysByRecency == [key("big")])
        cache.insert(image(100), for: key("huge"))
        #expect(cache.image(for: key("huge")) == nil)
        #expect(cache.counters.bytes == image(25).byteCost)
    }

    @Test func concurrentUseKeepsTheBooksStraight() async {
        let cache = PreparedImageCache(limit: image(10).byteCost * 50)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<500 {
                        cache.insert(self.image(10), for: self.key("\(worker)-\(i % 80)"))
                        _ = cache.image(for: self.key("\((worker + 1) % 4)-\(i % 80)"))
                    }
                }
            }
        }
        let counters = cache.counters
        #expect(counters.count == cache.keysByRecency.count)
        #expect(counters.bytes == counters.count * image(10).byteCost)
        #expect(counters.bytes <= cache.limit)
        #expect(counters.hits + counters.misses == 2000)
    }
}

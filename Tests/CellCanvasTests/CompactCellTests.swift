import CellCanvas
import Testing

@Suite struct CompactCellTests {
    @Test func aCellIsAPlainValue() {
        // No reference inside: copying, comparing and clearing never retain or allocate.
        #expect(_isPOD(Cell.self))
        #expect(MemoryLayout<Cell>.size <= 24, "\(MemoryLayout<Cell>.size) bytes")
    }

    @Test func singleScalarsAreTheirOwnCodeAndClustersAreInterned() {
        #expect(Cell("a").code == 0x61 && Cell("♥").code == 0x2665)
        for cluster: Character in ["🇵🇪", "e\u{301}", "👍🏽", "❤️"] {
            let cell = Cell(cluster)
            #expect(cell.code & GraphemeTable.internedBit != 0)
            #expect(cell.glyph == cluster)
            #expect(Cell(cluster).code == cell.code, "interned once")
            var scalars: [UInt32] = []
            cell.forEachScalar { scalars.append($0) }
            #expect(scalars == cluster.unicodeScalars.map(\.value))
        }
    }

    @Test func resetKeepsTheStorageWhenTheSizeIsUnchanged() {
        var canvas = Canvas(columns: 40, rows: 10)
        canvas.draw("hello", at: Point(x: 0, y: 0))
        let before = canvas.cells.withUnsafeBufferPointer { $0.baseAddress }
        canvas.reset(columns: 40, rows: 10)
        #expect(canvas.cells.withUnsafeBufferPointer { $0.baseAddress } == before)
        #expect(canvas == Canvas(columns: 40, rows: 10))
        canvas.reset(columns: 20, rows: 5)
        #expect(canvas.columns == 20 && canvas.rows == 5 && canvas.cells.count == 100)
    }

    @Test func assignCopiesIntoItsOwnStorage() {
        var source = Canvas(columns: 8, rows: 2)
        source.draw("abc", at: Point(x: 1, y: 1))
        var target = Canvas(columns: 8, rows: 2)
        let storage = target.cells.withUnsafeBufferPointer { $0.baseAddress }
        target.assign(source)
        #expect(target == source)
        #expect(target.cells.withUnsafeBufferPointer { $0.baseAddress } == storage, "no new storage")
        #expect(source.cells.withUnsafeBufferPointer { $0.baseAddress } != storage, "none shared")
        var resized = Canvas(columns: 3, rows: 3)
        resized.assign(source)
        #expect(resized == source)
    }

    /// Printable ASCII takes a fast path; it must draw exactly what the general path draws.
    @Test func theASCIIPathDrawsWhatTheGeneralPathDraws() {
        for (text, width) in [("Cusco", 10), ("Saint Lucia", 6), ("", 4), ("abc", 3), ("abcd", 3), ("x", 1)] {
            var fast = Canvas(columns: 12, rows: 1), general = Canvas(columns: 12, rows: 1)
            let drawnFast = fast.draw(text, at: Point(x: 1, y: 0), width: width)
            // A zero-width joiner at the end sends the same text down the general path.
            let drawnGeneral = general.draw(text + "\u{200B}", at: Point(x: 1, y: 0), width: width)
            #expect(drawnFast == drawnGeneral, "\(text) in \(width)")
            #expect(fast == general, "\(text) in \(width): \(fast.rowTexts) vs \(general.rowTexts)")
        }
    }
}

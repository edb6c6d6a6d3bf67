import CellCanvas
import Foundation
import ImagePipeline
import Testing

/// The kitty stream decoded back as a terminal would read it: the image id, each cell's
/// row and column, and the transmitted PNG's pixels.
@Suite struct KittyGraphicsTests {
    /// The image a transmission carries: its id, placement size and PNG.
    static func transmitted(_ stream: [UInt8]) throws -> (id: UInt32, columns: Int, rows: Int, png: [UInt8]) {
        let parts = KittyGraphics.commands(in: stream)
        let first = try #require(parts.first)
        #expect(first.control["a"] == "T" && first.control["f"] == "100" && first.control["U"] == "1" && first.control["q"] == "2")
        #expect(parts.dropLast().allSatisfy { $0.control["m"] == "1" } && parts.last?.control["m"] == "0", "chunks say more until the last")
        #expect(parts.allSatisfy { $0.payload.count <= 4096 }, "chunks of at most 4,096 bytes")
        let data = try #require(Data(base64Encoded: String(decoding: parts.flatMap(\.payload), as: UTF8.self)))
        return (try #require(first.control["i"].flatMap { UInt32($0) }), try #require(first.control["c"].flatMap { Int($0) }),
                try #require(first.control["r"].flatMap { Int($0) }), [UInt8](data))
    }

    @Test func base64MatchesFoundation() {
        var rng = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 4, 5, 100, 4097] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let ours = String(decoding: KittyGraphics.base64(bytes), as: UTF8.self)
            #expect(ours == Data(bytes).base64EncodedString(), "\(count) bytes")
        }
    }

    @Test func aPreparedThumbnailDecodesBackToItsIdCellsAndPixels() throws {
        let preparer = ImagePreparer(colorMode: .truecolor, output: .kitty(cellPixels: (width: 10, height: 20), throughTmux: false))
        let image = try preparer.prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 2)  // 80×40 pixels: the photo's 2:1
        let id = try #require(image.graphicID)
        // The cells: every one a placeholder of this image, at its own row and column.
        let decoded = KittyGraphics.decode(image.cells, columns: image.columns)
        for row in 0..<image.rows {
            for column in 0..<image.columns {
                let cell = decoded[row * image.columns + column]
                #expect(cell?.id == id && cell?.row == row && cell?.column == column, "cell \(column),\(row): \(String(describing: cell))")
            }
        }
        // The stream: this id, the placement's size, and a PNG of exactly its pixels.
        let sent = try Self.transmitted(image.transmission)
        #expect(sent.id == id && sent.columns == 8 && sent.rows == 2)
        let pixels = try PNGCodec.decode(sent.png, path: "sent")
        #expect(pixels.width == 80 && pixels.height == 40)
        #expect(near(pixels.pixel(x: 10, y: 10), red) && near(pixels.pixel(x: 70, y: 10), green))
        #expect(near(pixels.pixel(x: 10, y: 30), blue) && near(pixels.pixel(x: 70, y: 30), white))
        #expect(image.sent.transmission.isEmpty && image.sent.cells == image.cells)
        #expect(image.sent.byteCost >= 80 * 40 * 4, "the cache counts the pixels the terminal keeps")
    }

    /// Direct placement: the PNG is sent once and placed nowhere (`a=t`); each row of cells
    /// is a placement of its own band of the image, one row high, that leaves the cursor
    /// where it was; the cells are pixel cells whose strips linger, with a mosaic fallback.
    @Test func aDirectlyPlacedThumbnailIsSentOnceAndPlacedRowByRow() throws {
        let preparer = ImagePreparer(colorMode: .truecolor, output: .kittyPlacement(cellPixels: (width: 10, height: 20)))
        let image = try preparer.prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 2)
        let id = try #require(image.graphicID)
        let pixelImage = try #require(image.pixelImage)
        #expect(pixelImage.lingers && !pixelImage.reachesBelowItsRow && pixelImage.id == id)
        #expect(pixelImage.fallback.count == 16 && image.cells == PixelCell.cells(image: id, columns: 8, rows: 2))
        let sent = KittyGraphics.commands(in: image.transmission)
        #expect(sent.first?.control["a"] == "t" && sent.first?.control["i"] == "\(id)" && sent.first?.control["U"] == nil)
        let data = try #require(Data(base64Encoded: String(decoding: sent.flatMap(\.payload), as: UTF8.self)))
        let pixels = try PNGCodec.decode([UInt8](data), path: "sent")
        #expect(pixels.width == 80 && pixels.height == 40)
        #expect(near(pixels.pixel(x: 10, y: 10), red) && near(pixels.pixel(x: 70, y: 30), white))
        for (row, strip) in pixelImage.strips.enumerated() {
            let placement = KittyGraphics.commands(in: strip)
            #expect(placement.count == 1)
            let control = placement.first?.control ?? [:]
            #expect(control["a"] == "p" && control["i"] == "\(id)" && control["y"] == "\(row * 20)" && control["h"] == "20")
            #expect(control["w"] == "80" && control["c"] == "8" && control["r"] == "1" && control["C"] == "1" && control["q"] == "2")
        }
        #expect(image.byteCost >= 80 * 40 * 4, "the cache counts the pixels the terminal keeps")
    }

    @Test func throughTmuxEverySequenceIsWrappedAndDeletionsNameTheImage() throws {
        let png = try PNGCodec.encode(PixelBuffer(width: 1, height: 1, bytes: [9, 8, 7, 255]))
        let wrapped = KittyGraphics.transmission(png: png, id: 77, columns: 3, rows: 1, throughTmux: true)
        #expect(String(decoding: wrapped, as: UTF8.self).hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        #expect(try Self.transmitted(wrapped).png == png)
        let deletion = KittyGraphics.commands(in: KittyGraphics.deletion(id: 77, throughTmux: true))
        #expect(deletion.count == 1 && deletion[0].control["a"] == "d" && deletion[0].control["d"] == "I" && deletion[0].control["i"] == "77")
    }

    @Test func idsAreNewEachTimeAndFitAColour() {
        let ids = (0..<1000).map { _ in KittyGraphics.nextID() }
        #expect(Set(ids).count == 1000 && ids.allSatisfy { $0 >= 1 && $0 <= KittyGraphics.maximumID })
    }
}

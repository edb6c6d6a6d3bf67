import CoreKit
import CellCanvas
import ImagePipeline
import Testing

/// Sixel strips decoded back as a terminal reads them: each strip one row of cells, the
/// photo's pixels within the palette's error, nothing painted below a strip's row.
@Suite struct SixelEncoderTests {
    @Test func aPreparedThumbnailIsOneStripPerRowOfCellsAndDecodesBackToItsPixels() throws {
        let preparer = ImagePreparer(colorMode: .truecolor, output: .sixel(cellPixels: (width: 10, height: 20), colors: 256))
        let image = try preparer.prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 2)  // 80×40 pixels
        let id = try #require(image.graphicID)
        let pixels = try #require(image.pixelImage)
        #expect(pixels.id == id && pixels.columns == 8 && pixels.rows == 2 && pixels.strips.count == 2)
        for row in 0..<2 {
            for column in 0..<8 {
                let cell = PixelCell.decode(image.cells[row * 8 + column])
                #expect(cell?.image == id && cell?.row == row && cell?.column == column)
            }
        }
        let top = try #require(SixelDecoder.decode(pixels.strips[0])), bottom = try #require(SixelDecoder.decode(pixels.strips[1]))
        #expect(top.width == 80 && top.height == 20 && bottom.width == 80 && bottom.height == 20)
        #expect(near(top.pixel(x: 10, y: 10), red) && near(top.pixel(x: 70, y: 10), green))
        #expect(near(bottom.pixel(x: 10, y: 10), blue) && near(bottom.pixel(x: 70, y: 10), white))
        #expect(image.sent.pixelImage == nil && image.sent.cells == image.cells)
        #expect(image.sent.byteCost >= pixels.byteCount, "the cache counts the strips the presenter keeps")
    }

    /// D-077: the palette goes where the colours spread, not only where most pixels are: a
    /// small red object of many shades in a large sky of many blue shades keeps its red at 8
    /// colours (the most popular histogram cells, the palette before, were all sky).
    @Test func aSmallObjectKeepsItsColourBesideALargeGradient() throws {
        var random = SplitMix64(seed: 77)
        var bytes: [UInt8] = []
        for y in 0..<60 {
            for x in 0..<120 {
                if (50..<60).contains(x) && (25..<35).contains(y) {
                    let grain = Int(random.next() % 40)
                    bytes += [UInt8(200 + grain / 2), UInt8(grain), UInt8(grain / 2), 255]
                } else {
                    bytes += [UInt8(40 + y / 2), UInt8(90 + x / 2), UInt8(150 + y), 255]
                }
            }
        }
        let strips = SixelEncoder.strips(of: PixelBuffer(width: 120, height: 60, bytes: bytes), cellHeight: 60, colors: 8, coloursPerBand: nil)
        let decoded = try #require(SixelDecoder.decode(strips[0]))
        let red = decoded.pixel(x: 55, y: 30), sky = decoded.pixel(x: 10, y: 10)
        #expect(red.r > 170 && red.g < 60 && red.b < 60, "the object stays red: \(red)")
        #expect(sky.b > 130 && sky.r < 90, "the sky stays blue: \(sky)")
    }

    @Test func aStripPaintsEveryPixelOfItsRowAndNothingBelow() throws {
        // 13 rows: two full bands and one of a single row, as in a 6×13 font.
        var bytes: [UInt8] = []
        for y in 0..<26 {
            for x in 0..<7 { bytes += [UInt8(x * 36), UInt8(y * 9), UInt8((x + y) % 2 * 200), 255] }
        }
        let strips = SixelEncoder.strips(of: PixelBuffer(width: 7, height: 26, bytes: bytes), cellHeight: 13, colors: 256, coloursPerBand: nil)
        #expect(strips.count == 2)
        for (index, strip) in strips.enumerated() {
            let text = String(decoding: strip, as: UTF8.self)
            #expect(text.hasPrefix("\u{1B}P0;1;0q\"1;1;7;13"), "transparent background, 1:1, 7×13: \(text.prefix(20))")
            #expect(text.hasSuffix("\u{1B}\\"))
            let decoded = try #require(SixelDecoder.decode(strip))
            for y in 0..<13 {
                for x in 0..<7 {
                    let expected = (x * 36, (y + index * 13) * 9, (x + y + index * 13) % 2 * 200)
                    #expect(near(decoded.pixel(x: x, y: y), expected, tolerance: 8), "strip \(index) pixel \(x),\(y)")
                }
            }
            #expect(!text.contains("-") || text.split(separator: "-").count == 3, "three bands: 6 + 6 + 1 rows")
        }
    }

    /// A band of a photo keeps its most used colours; each other pixel takes the nearest
    /// of them. Checked on the decoded strips, band by band, as a terminal paints them.
    @Test(arguments: [2, 4, 8]) func aBandKeepsAtMostItsCapOfColoursAndCostsFewerBytes(cap: Int) throws {
        var bytes: [UInt8] = []
        var rng = 0x5eed as UInt64
        for y in 0..<26 {
            for x in 0..<40 {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(rng >> 60)  // 0...15: scattered colours, as a photo has
                bytes += [UInt8(x * 6 + noise), UInt8(y * 9), UInt8(noise * 12), 255]
            }
        }
        let pixels = PixelBuffer(width: 40, height: 26, bytes: bytes)
        let capped = SixelEncoder.strips(of: pixels, cellHeight: 13, colors: 128, coloursPerBand: cap)
        let free = SixelEncoder.strips(of: pixels, cellHeight: 13, colors: 128, coloursPerBand: nil)
        #expect(capped.count == 2)
        #expect(capped.joined().count < free.joined().count, "\(capped.joined().count) bytes capped, \(free.joined().count) not")
        for (index, strip) in capped.enumerated() {
            let decoded = try #require(SixelDecoder.decode(strip))
            #expect(decoded.width == 40 && decoded.height == 13)
            for bandTop in stride(from: 0, to: 13, by: 6) {
                var colours = Set<[UInt8]>()
                for y in bandTop..<min(bandTop + 6, 13) {
                    for x in 0..<40 {
                        let p = decoded.pixel(x: x, y: y)
                        #expect(p.a == 255, "strip \(index) pixel \(x),\(y) painted")
                        colours.insert([p.r, p.g, p.b])
                    }
                }
                #expect(colours.count <= cap, "strip \(index) band at \(bandTop): \(colours.count) colours")
            }
        }
    }

    @Test func aBandWithinItsCapIsEncodedExactlyAsWithoutOne() {
        var bytes: [UInt8] = []
        for y in 0..<12 { for x in 0..<30 { bytes += x < 15 ? [200, 20, 20, 255] : (y < 6 ? [20, 200, 20, 255] : [20, 20, 200, 255]) } }
        let pixels = PixelBuffer(width: 30, height: 12, bytes: bytes)
        #expect(SixelEncoder.strips(of: pixels, cellHeight: 12, colors: 16, coloursPerBand: 2)
                == SixelEncoder.strips(of: pixels, cellHeight: 12, colors: 16, coloursPerBand: nil))
    }

    @Test func fewerRegistersMeanAtMostThatManyColours() throws {
        var bytes: [UInt8] = []
        for i in 0..<(64 * 12) { bytes += [UInt8(i % 256), UInt8(i / 3 % 256), UInt8(i * 7 % 256), 255] }
        let strips = SixelEncoder.strips(of: PixelBuffer(width: 64, height: 12, bytes: bytes), cellHeight: 12, colors: 16)
        let text = String(decoding: strips[0], as: UTF8.self)
        let registers = Set(text.split(separator: "#").dropFirst().compactMap { $0.split(separator: ";").first.flatMap { Int($0) } })
        #expect(registers.count <= 16 && registers.allSatisfy { $0 < 16 }, "\(registers.sorted())")
    }
}

/// 24-bit mosaics as text strips: colours written where they change, glyphs in order, the
/// fallback in the 256-colour palette.
@Suite struct TextStripsTests {
    @Test func aRowIsItsGlyphsWithColourOnlyWhereItChanges() {
        let red = CellStyle(foreground: .rgb(0xFF0000), background: .rgb(0x000080))
        let green = CellStyle(foreground: .rgb(0x00FF00), background: .rgb(0x000080))
        let cells = [Cell("▄", style: red), Cell("▄", style: red), Cell("▌", style: green), Cell("x", style: red), Cell("y", style: red), Cell("z", style: red)]
        let strips = TextStrips.strips(of: cells, columns: 3)
        #expect(strips.count == 2)
        #expect(String(decoding: strips[0], as: UTF8.self) == "\u{1B}[0;38;2;255;0;0;48;2;0;0;128m▄▄\u{1B}[38;2;0;255;0m▌\u{1B}[0m")
        #expect(String(decoding: strips[1], as: UTF8.self) == "\u{1B}[0;38;2;255;0;0;48;2;0;0;128mxyz\u{1B}[0m")
        let fallback = TextStrips.paletteCells(cells)
        #expect(fallback[0].style.foreground == .palette(196) && fallback[0].style.background == .palette(18))
        #expect(fallback.map(\.code) == cells.map(\.code))
    }

    /// A feed's photo arrives as bytes (`prepare(_:as:columns:rows:)`), a file's by path:
    /// both become the same picture in every output. The bytes once became symbols whatever
    /// the output, so a feed never showed a photo as pixels (D-065).
    @Test(arguments: [
        ImageOutput.sixel(cellPixels: (width: 10, height: 20), colors: 64), .truecolorSymbols,
        .iterm2(cellPixels: (width: 10, height: 20)), .kittyPlacement(cellPixels: (width: 10, height: 20)),
        .kitty(cellPixels: (width: 10, height: 20), throughTmux: false),
    ])
    func bytesBecomeTheSamePictureAsTheFile(output: ImageOutput) throws {
        let preparer = ImagePreparer(colorMode: .palette240, output: output)
        let asset = AssetID(path: fixture("quadrants.jpg"))
        let fromFile = try preparer.prepare(asset, columns: 8, rows: 2)
        let fromBytes = try preparer.prepare(ImagePreparer.readFile(asset.path), as: asset, columns: 8, rows: 2)
        #expect(fromBytes.graphicID != nil, "a graphic, not symbols")
        #expect(fromBytes.columns == fromFile.columns && fromBytes.rows == fromFile.rows)
        #expect(fromBytes.pixelImage?.strips.count == fromFile.pixelImage?.strips.count)
        #expect(fromBytes.transmission.isEmpty == fromFile.transmission.isEmpty)
        switch output {
        case .kitty, .kittyPlacement: break  // their bytes name the image's own id
        default: #expect(fromBytes.pixelImage?.strips == fromFile.pixelImage?.strips, "the same pixels, byte for byte")
        }
    }

    @Test func aPreparedThumbnailIsPixelCellsWithAStripPerRow() throws {
        let preparer = ImagePreparer(colorMode: .palette240, output: .truecolorSymbols)
        let image = try preparer.prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 2)
        let pixels = try #require(image.pixelImage)
        #expect(pixels.rows == 2 && pixels.columns == 8 && !pixels.reachesBelowItsRow)
        #expect(image.cells.allSatisfy { PixelCell.decode($0)?.image == pixels.id })
        let text = String(decoding: pixels.strips[0], as: UTF8.self)
        #expect(text.contains("38;2;") || text.contains("48;2;"), "24-bit colours: \(text.prefix(60))")
        #expect(pixels.fallback.allSatisfy { if case .rgb = $0.style.background { false } else { true } }, "the fallback has no 24-bit colour")
    }
}

/// iTerm2 inline images, a PNG per row of cells, read back as iTerm2 reads them.
@Suite struct ITerm2ImagesTests {
    @Test func eachRowOfCellsIsAnInlinePNGOfItsPixels() throws {
        let preparer = ImagePreparer(colorMode: .palette240, output: .iterm2(cellPixels: (width: 10, height: 20)))
        let image = try preparer.prepare(AssetID(path: fixture("quadrants.jpg")), columns: 8, rows: 2)
        let pixels = try #require(image.pixelImage)
        #expect(pixels.rows == 2 && pixels.columns == 8)
        for (row, strip) in pixels.strips.enumerated() {
            let (arguments, file) = try #require(ITerm2Images.decode(strip))
            #expect(arguments["inline"] == "1" && arguments["width"] == "8" && arguments["height"] == "1" && arguments["preserveAspectRatio"] == "0")
            #expect(arguments["size"] == "\(file.count)")
            let png = try PNGCodec.decode(file, path: "strip")
            #expect(png.width == 80 && png.height == 20)
            let (left, right) = row == 0 ? (red, green) : (blue, white)
            #expect(near(png.pixel(x: 10, y: 10), left) && near(png.pixel(x: 70, y: 10), right), "row \(row)")
        }
    }
}

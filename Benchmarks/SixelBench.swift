import ArgumentParser
import CoreKit
import Foundation
import ImagePipeline

/// Bytes a pixel and error of the sixel encoder over the bundled photos, for each cap on
/// the colours of a 6-pixel band: the figures `SixelEncoder.defaultColoursPerBand` was
/// chosen by (DECISIONS D-045). Exact (no timing): the same on any machine.
struct SixelBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sixel", abstract: "Sixel bytes a pixel and error per colour cap a band.")

    @Option(help: "The Assets folder.") var assets = "Assets"
    @Option(help: "Thumbnail size in cells.") var cells = "26x7"
    @Option(help: "Cell size in pixels (xterm -ti vt340 under Xvfb: 6x13).") var cellPixels = "6x13"
    @Option(help: "Also write a page of 20 thumbnails (5 × 4, each strip placed at its cell) per cap to PREFIX-128-CAP.six, the app's 16 registers dithered to PREFIX-16-dither.six, and the peers' to PREFIX-COLOURS-TOOL.six, to time a terminal drawing it (scripts/sixel_parse.py).") var dump: String?

    func run() throws {
        let (columns, rows) = try Self.size(cells), (cellWidth, cellHeight) = try Self.size(cellPixels)
        let (paths, thumbnails) = try Self.thumbnails(assets: assets, columns: columns, rows: rows, cellWidth: cellWidth, cellHeight: cellHeight)
        let preparer = ImagePreparer(colorMode: .truecolor)
        print("Sixel over \(thumbnails.count) photos at \(columns)x\(rows) cells of \(cellWidth)x\(cellHeight) px; bytes a pixel and RMS error (0-255) over all of them")
        print("registers  cap a band   bytes/px   rms error   bytes/thumbnail")
        for registers in [16, 24, 32, 64, 128] {
            for cap in [nil, 16, 12, 8, 6, 4] as [Int?] where cap.map({ $0 < registers }) ?? true {
                var bytes = 0, pixels = 0
                var squared = 0.0
                for thumbnail in thumbnails {
                    let strips = SixelEncoder.strips(of: thumbnail, cellHeight: cellHeight, colors: registers, coloursPerBand: cap)
                    bytes += strips.reduce(0) { $0 + $1.count }
                    pixels += thumbnail.width * thumbnail.height
                    squared += Self.squaredError(thumbnail, strips: strips, cellHeight: cellHeight)
                }
                let rms = (squared / Double(pixels * 3)).squareRoot()
                if let dump, registers == 128 || registers == SixelEncoder.defaultColors {
                    try Self.page(thumbnails, columns: columns, rows: rows, cellHeight: cellHeight, registers: registers, cap: cap)
                        .write(to: URL(fileURLWithPath: "\(dump)-\(registers)-\(cap.map(String.init) ?? "none").six"))
                    // The same thumbnails each as one image, not a strip a row of cells: what a
                    // terminal's cost per image is, beside its cost per byte.
                    try Self.page(thumbnails, columns: columns, rows: rows, cellHeight: rows * cellHeight, registers: registers, cap: cap)
                        .write(to: URL(fileURLWithPath: "\(dump)-\(registers)-\(cap.map(String.init) ?? "none")-whole.six"))
                }
                print("\(pad("\(registers)", 10)) \(pad(cap.map(String.init) ?? "none", 12)) \(pad(String(format: "%.2f", Double(bytes) / Double(pixels)), 10)) \(pad(String(format: "%.1f", rms), 11)) \(bytes / thumbnails.count)")
            }
        }
        try compareDithering(thumbnails, columns: columns, rows: rows, cellHeight: cellHeight)
        print("the same thumbnails through other encoders (each read back whole; bytes/px, rms error, bytes/thumbnail):")
        for colours in [128, 16] {
            let keep: ((String, [[UInt8]]) -> Void)? = dump.map { prefix in
                { name, images in
                    let file = "\(prefix)-\(colours)-\(name.split(separator: " ")[0]).six"
                    try? SixelPeers.page(images, columns: columns, rows: rows).write(to: URL(fileURLWithPath: file))
                }
            }
            let onAPty = URL(fileURLWithPath: assets).deletingLastPathComponent().appendingPathComponent("scripts/on_a_pty.py").path
            for line in try SixelPeers.compare(thumbnails, colours: colours, cellWidth: cellWidth, cellHeight: cellHeight, onAPty: onAPty, outputs: keep) {
                print("\(pad("\(colours)", 10)) \(line)")
            }
        }
        timeTheDefault(thumbnails, cellHeight: cellHeight)
        let decoded = try paths.map { path in try preparer.decode(AssetID(path: path), columns: columns, rows: rows) }
        timeTheFallback(decoded: decoded, sized: thumbnails, columns: columns, rows: rows)
    }

    /// A sixel thumbnail's other cost: its symbol mosaic, shown while a fling outruns the
    /// terminal. From the decoded photo (as the preparer does), from the sixel-sized pixels,
    /// and with less of chafa's search; medians of 7 passes, in one run.
    func timeTheFallback(decoded: [PixelBuffer], sized: [PixelBuffer], columns: Int, rows: Int) {
        func median(_ converter: CellConverter, _ sources: [PixelBuffer]) -> Double {
            var passes: [Double] = []
            for _ in 0..<7 {
                let started = ContinuousClock.now
                for source in sources { _ = converter.convert(source, columns: columns, rows: rows) }
                let elapsed = ContinuousClock.now - started
                passes.append(elapsed.milliseconds / Double(sources.count))
            }
            return passes.sorted()[passes.count / 2]
        }
        let standard = CellConverter(colorMode: .palette240)
        var line = "fallback mosaic (240 colours), ms a thumbnail: from the decoded photo \(String(format: "%.3f", median(standard, decoded)))"
        line += ", from the sixel-sized pixels \(String(format: "%.3f", median(standard, sized)))"
        for factor in [0.25, 0.0] as [Float] {
            line += ", work factor \(factor) \(String(format: "%.3f", median(CellConverter(colorMode: .palette240, workFactor: factor), decoded)))"
        }
        print(line + "; decoded \(decoded[0].width)x\(decoded[0].height) px for the first")
    }

    /// What the app's setting (``SixelEncoder/defaultColors``, the strips and the whole
    /// image, ``SixelEncoder/encode(_:cellHeight:colors:coloursPerBand:dither:)``) costs a decoding
    /// worker: the median of 7 passes over every thumbnail, the whole images' bytes a pixel,
    /// and an MD5 of all the bytes, so that two builds can be shown to encode the same.
    func timeTheDefault(_ thumbnails: [PixelBuffer], cellHeight: Int) {
        var passes: [Double] = []
        var digest = ""
        var wholeBytes = 0
        for _ in 0..<7 {
            var all: [UInt8] = []
            wholeBytes = 0
            let started = ContinuousClock.now
            for thumbnail in thumbnails {
                let encoded = SixelEncoder.encode(thumbnail, cellHeight: cellHeight, colors: SixelEncoder.defaultColors)
                for strip in encoded.strips { all += strip }
                all += encoded.whole ?? []
                wholeBytes += encoded.whole?.count ?? 0
            }
            let elapsed = ContinuousClock.now - started
            passes.append(elapsed.milliseconds)
            digest = MD5.hex(all)
        }
        let median = passes.sorted()[passes.count / 2]
        let pixels = thumbnails.reduce(0) { $0 + $1.width * $1.height }
        print("encoding at the app's setting, \(SixelEncoder.defaultColors) registers, strips and the whole image: "
              + "\(String(format: "%.3f", median / Double(thumbnails.count))) ms a thumbnail (median of 7 passes); "
              + "the whole image \(String(format: "%.2f", Double(wholeBytes) / Double(pixels))) bytes a pixel; MD5 \(digest)")
    }

    /// Ordered dithering against plain mapping at the app's band cap (D-084): bytes a pixel,
    /// the RMS error of each pixel, and the tone error, the RMS error of 4×4 block means
    /// (what an eye at a distance averages, and what dithering is for); with `--dump`, the
    /// pages of 16 registers dithered, for `scripts/sixel_parse.py`.
    func compareDithering(_ thumbnails: [PixelBuffer], columns: Int, rows: Int, cellHeight: Int) throws {
        print("dithering (ordered, 4x4 Bayer) against plain mapping; tone error: RMS error of 4x4 block means")
        print("registers  dither   bytes/px   rms error   tone error")
        for registers in [16, 24, 32, 64] {
            for dither in [false, true] {
                var bytes = 0, pixels = 0, blocks = 0
                var squared = 0.0, tone = 0.0
                for thumbnail in thumbnails {
                    let strips = SixelEncoder.strips(of: thumbnail, cellHeight: cellHeight, colors: registers, dither: dither)
                    bytes += strips.reduce(0) { $0 + $1.count }
                    pixels += thumbnail.width * thumbnail.height
                    squared += Self.squaredError(thumbnail, strips: strips, cellHeight: cellHeight)
                    let whole = SixelEncoder.strips(of: thumbnail, cellHeight: thumbnail.height, colors: registers, dither: dither)
                    if let decoded = whole.first.flatMap(SixelDecoder.decode) {
                        let error = Self.blockError(thumbnail, decoded, block: 4)
                        tone += error.squared
                        blocks += error.count
                    }
                }
                let rms = (squared / Double(pixels * 3)).squareRoot(), toneRMS = blocks > 0 ? (tone / Double(blocks)).squareRoot() : .nan
                print("\(pad("\(registers)", 10)) \(pad(dither ? "ordered" : "none", 8)) \(pad(String(format: "%.2f", Double(bytes) / Double(pixels)), 10)) \(pad(String(format: "%.1f", rms), 11)) \(String(format: "%.1f", toneRMS))")
                if let dump, dither, registers == SixelEncoder.defaultColors {
                    try Self.page(thumbnails, columns: columns, rows: rows, cellHeight: cellHeight, registers: registers, cap: SixelEncoder.defaultColoursPerBand, dither: true)
                        .write(to: URL(fileURLWithPath: "\(dump)-\(registers)-dither.six"))
                    try Self.page(thumbnails, columns: columns, rows: rows, cellHeight: rows * cellHeight, registers: registers, cap: SixelEncoder.defaultColoursPerBand, dither: true)
                        .write(to: URL(fileURLWithPath: "\(dump)-\(registers)-dither-whole.six"))
                }
            }
        }
    }

    /// The squared error of `b`'s `block`×`block` means against `a`'s, summed over the
    /// channels of every whole block, and how many channel-blocks that is.
    static func blockError(_ a: PixelBuffer, _ b: PixelBuffer, block: Int) -> (squared: Double, count: Int) {
        var squared = 0.0, count = 0
        for top in stride(from: 0, through: min(a.height, b.height) - block, by: block) {
            for left in stride(from: 0, through: min(a.width, b.width) - block, by: block) {
                var sums = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
                for y in top..<top + block {
                    for x in left..<left + block {
                        let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                        sums[0] += Double(p.r); sums[1] += Double(p.g); sums[2] += Double(p.b)
                        sums[3] += Double(q.r); sums[4] += Double(q.g); sums[5] += Double(q.b)
                    }
                }
                let n = Double(block * block)
                for channel in 0..<3 {
                    let d = (sums[channel] - sums[channel + 3]) / n
                    squared += d * d
                }
                count += 3
            }
        }
        return (squared, count)
    }

    /// Twenty thumbnails as the grid places them: each strip at its cell (CUP), five a row.
    static func page(_ thumbnails: [PixelBuffer], columns: Int, rows: Int, cellHeight: Int, registers: Int, cap: Int?, dither: Bool = false) -> Data {
        var bytes: [UInt8] = []
        for index in 0..<20 {
            let strips = SixelEncoder.strips(of: thumbnails[index % thumbnails.count], cellHeight: cellHeight, colors: registers, coloursPerBand: cap, dither: dither)
            let top = 1 + (index / 5) * (rows + 3), left = 1 + (index % 5) * (columns + 2)
            for (row, strip) in strips.enumerated() {
                bytes += Array("\u{1B}[\(top + row);\(left)H".utf8) + strip
            }
        }
        return Data(bytes)
    }

    /// The thumbnail against its strips decoded back, as a terminal paints them.
    static func squaredError(_ original: PixelBuffer, strips: [[UInt8]], cellHeight: Int) -> Double {
        strips.enumerated().reduce(0.0) { sum, strip in
            guard let decoded = SixelDecoder.decode(strip.element) else { return sum }
            return sum + SixelPeers.squaredError(original, decoded, top: strip.offset * cellHeight)
        }
    }

    /// The bundled photos' paths, and each decoded as the app does for a thumbnail of
    /// `columns` × `rows` cells, filling its cells' pixels exactly.
    static func thumbnails(assets: String, columns: Int, rows: Int, cellWidth: Int, cellHeight: Int) throws -> (paths: [String], thumbnails: [PixelBuffer]) {
        let photos = URL(fileURLWithPath: assets).appendingPathComponent("photos")
        let paths = try FileManager.default.contentsOfDirectory(atPath: photos.path).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
            .map { photos.appendingPathComponent($0).path }
        let preparer = ImagePreparer(colorMode: .truecolor)
        let thumbnails = try paths.map { path in
            try preparer.decode(AssetID(path: path), columns: columns, rows: rows).filling(width: columns * cellWidth, height: rows * cellHeight)
        }
        return (paths, thumbnails)
    }

    static func size(_ text: String) throws -> (Int, Int) {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { throw ValidationError("expected WxH, got \(text)") }
        return (parts[0], parts[1])
    }

}

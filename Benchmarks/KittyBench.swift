import ArgumentParser
import CoreKit
import Foundation
import ImagePipeline

/// What a kitty transmission of a thumbnail costs in each of the protocol's forms
/// (issue 46: "compressed, `o=z`, where that is cheaper end to end"): the PNG the app sent
/// before (RGBA, libpng's fast setting), the same as RGB, the app's now (RGB, libpng's
/// default filters and compression), and raw RGB deflated by zlib (`f=24,o=z`) at levels 1
/// and 6, over the bundled photos at the placement's pixels. Bytes
/// are exact; the encoding time a thumbnail is the median of 7 passes, in one run.
/// Base64 (4/3) applies to every form alike.
struct KittyBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "kitty", abstract: "kitty transmission bytes and encode time: PNG, RGB PNG, zlib RGB.")

    @Option(help: "The Assets folder.") var assets = "Assets"
    @Option(help: "Thumbnail size in cells.") var cells = "26x7"
    @Option(help: "Cell size in pixels (kitty 0.26.5 under Xvfb here: 9x18).") var cellPixels = "9x18"

    func run() throws {
        let (columns, rows) = try SixelBench.size(cells), (cellWidth, cellHeight) = try SixelBench.size(cellPixels)
        let thumbnails = try SixelBench.thumbnails(assets: assets, columns: columns, rows: rows, cellWidth: cellWidth, cellHeight: cellHeight).thumbnails
        let forms: [(String, (PixelBuffer) throws -> [UInt8])] = [
            ("PNG RGBA fast (before)", { try PNGCodec.encode($0, fast: true) }),
            ("PNG RGB fast", { try PNGCodec.encode($0, fast: true, opaque: true) }),
            ("PNG RGB (the app)", { try KittyGraphics.png(of: $0) }),
            ("zlib RGB level 1 (o=z)", { PNGCodec.deflate(PNGCodec.rgb(of: $0), level: 1) }),
            ("zlib RGB level 6 (o=z)", { PNGCodec.deflate(PNGCodec.rgb(of: $0), level: 6) }),
        ]
        let pixels = thumbnails.reduce(0) { $0 + $1.width * $1.height }
        print("kitty transmissions of \(thumbnails.count) photos at \(columns)x\(rows) cells of \(cellWidth)x\(cellHeight) px (raw RGB \(pixels * 3 / thumbnails.count) bytes a thumbnail)")
        print("form                        bytes/thumbnail   bytes/px   encode ms/thumbnail (median of 7)")
        for (name, encode) in forms {
            let bytes = try thumbnails.reduce(0) { $0 + (try encode($1)).count }
            var passes: [Double] = []
            for _ in 0..<7 {
                let started = ContinuousClock.now
                for thumbnail in thumbnails { _ = try encode(thumbnail) }
                passes.append((ContinuousClock.now - started).milliseconds / Double(thumbnails.count))
            }
            let line = [name.padding(toLength: 28, withPad: " ", startingAt: 0),
                        String(bytes / thumbnails.count).padding(toLength: 17, withPad: " ", startingAt: 0),
                        String(format: "%.2f", Double(bytes) / Double(pixels)).padding(toLength: 10, withPad: " ", startingAt: 0),
                        String(format: "%.3f", Measure.median(passes))]
            print(line.joined(separator: " "))
        }
    }
}

import CoreKit
import ArgumentParser
import CImageFormats
import Foundation
import ImagePipeline
import RenderLoop

/// Decode, scale, convert and whole-preparation costs of real photos, throughput on one
/// and two workers, and the `chafa` command line on the same file and size, in one run.
struct ImageBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "images", abstract: "Image preparation benchmark (IMAGES.md comparisons).")

    @Option(help: "The Assets folder.") var assets = "Assets"
    @Option(help: "Runs per measurement (medians are reported).") var runs = 11
    @Flag(help: "End with a JSON object.") var json = false

    struct Subject {
        let label: String
        let path: String
    }

    func run() throws {
        let photos = URL(fileURLWithPath: assets).appendingPathComponent("photos")
        let largePNG = FileManager.default.temporaryDirectory.appendingPathComponent("destinations-bench-5120.png").path
        let volna = photos.appendingPathComponent("volna.jpg").path
        if !FileManager.default.fileExists(atPath: largePNG) {
            try PNGCodec.write(try ImagePreparer(colorMode: .truecolor).decode(AssetID(path: volna), columns: 1, rows: 1, fullSize: true), to: largePNG)
        }
        // The same photo as a WebP (quality 90, libwebp's encoder): GoToSocial's previews and
        // Mastodon's WebP uploads (issue 45), against the baseline JPEG it was made from.
        // Also both at a server's preview size (640×400, quality 80, made from the same pixels).
        let folder = FileManager.default.temporaryDirectory
        let webp = folder.appendingPathComponent("destinations-bench-2560.webp").path
        let previewJPEG = folder.appendingPathComponent("destinations-bench-640.jpg").path
        let previewWebP = folder.appendingPathComponent("destinations-bench-640.webp").path
        let source = try ImagePreparer(colorMode: .truecolor).decode(AssetID(path: photos.appendingPathComponent("by-the-water.jpg").path),
                                                                      columns: 1, rows: 1, fullSize: true)
        let preview = try ImagePreparer(colorMode: .truecolor).decode(AssetID(path: photos.appendingPathComponent("by-the-water.jpg").path),
                                                                       columns: 1, rows: 1).scaledToFit(box: 640)
        try Self.writeWebP(source, quality: 90, to: webp)
        try Self.writeWebP(preview, quality: 80, to: previewWebP)
        try Data(try JPEGEncoder().encode(preview, quality: 80)).write(to: URL(fileURLWithPath: previewJPEG))
        let subjects = [
            Subject(label: "baseline JPEG 2560x1600", path: photos.appendingPathComponent("by-the-water.jpg").path),
            Subject(label: "WebP 2560x1600 (same photo)", path: webp),
            Subject(label: "preview JPEG 640x400", path: previewJPEG),
            Subject(label: "preview WebP 640x400", path: previewWebP),
            Subject(label: "progressive JPEG 2560x1600", path: photos.appendingPathComponent("darkest-hour.jpg").path),
            Subject(label: "large JPEG 5120x2880", path: volna),
            Subject(label: "large PNG 5120x2880", path: largePNG),
        ]
        let chafa = Self.findChafa()
        print("Image preparation, release build, medians of \(runs); ms unless marked")
        print("subject                      size     full   scaled  convert  whole  chafa-cli  cli/whole  bytes")
        var baseline: (thumb: Double, cli: Double?, bytes: Int)?
        let preparer = ImagePreparer(colorMode: .truecolor)
        let converter = CellConverter(colorMode: .truecolor)
        for subject in subjects {
            for (columns, rows) in [(40, 12), (120, 40)] {
                let asset = AssetID(path: subject.path)
                let full = median { _ = try? preparer.decode(asset, columns: columns, rows: rows, fullSize: true) }
                let scaled = median { _ = try? preparer.decode(asset, columns: columns, rows: rows) }
                let pixels = try preparer.decode(asset, columns: columns, rows: rows)
                let convert = median { _ = converter.convert(pixels, columns: columns, rows: rows) }
                let whole = median { _ = try? preparer.prepare(asset, columns: columns, rows: rows) }
                let bytes = try preparer.prepare(asset, columns: columns, rows: rows).byteCost
                let cli = chafa.map { tool in median(runs: min(runs, 7)) { Self.runChafa(tool, subject.path, columns, rows) } }
                let ratio = cli.map { $0 / whole }
                print("\(pad(subject.label, 28)) \(pad("\(columns)x\(rows)", 8)) \(pad(Measure.format(full), 6)) \(pad(Measure.format(scaled), 7)) \(pad(Measure.format(convert), 8)) \(pad(Measure.format(whole), 6)) \(pad(cli.map { Measure.format($0) } ?? "n/a", 10)) \(pad(ratio.map { Measure.format($0, 1) + "x" } ?? "-", 10)) \(bytes)")
                if subject.label.hasPrefix("baseline") && columns == 40 { baseline = (whole, cli, bytes) }
            }
        }
        if chafa == nil { print("(the chafa command is not installed: apt-get install chafa)") }

        // Symbol sets: conversion cost of the same 40×12 thumbnail.
        let pixels = try preparer.decode(AssetID(path: subjects[0].path), columns: 40, rows: 12)
        var setCosts: [String] = []
        for symbols in ["block", CellConverter.defaultSymbols, "block+border+space+sextant+wedge+diagonal-wide-inverted", "all-wide"] {
            let candidate = CellConverter(colorMode: .truecolor, symbols: symbols)
            setCosts.append("\(symbols) \(Measure.format(median { _ = candidate.convert(pixels, columns: 40, rows: 12) }))")
        }
        print("convert 40x12 by symbol set (ms): " + setCosts.joined(separator: "; "))

        // A progressive photo's 1/8 thumbnail: its DC scans alone against TurboJPEG (D-053),
        // and the coefficient memory each holds (libjpeg: 64 coefficients of 2 bytes a block).
        for name in ["path.jpg", "darkest-hour.jpg", "rain-drops.jpg", "storm.jpg"] {
            let data = Array(try Data(contentsOf: photos.appendingPathComponent(name)))
            let dcOnly = JPEGDecoder(), turbo = JPEGDecoder()
            turbo.readsDCScansAlone = false
            let dc = median { _ = try? dcOnly.decode(data, path: name, covering: (1, 1)) }
            let whole = median { _ = try? turbo.decode(data, path: name, covering: (1, 1)) }
            let size = dcOnly.headerSize(data) ?? (0, 0)
            let blocks = ((size.width + 15) / 16) * ((size.height + 15) / 16) * 6   // 4:2:0: six blocks an MCU
            print("progressive \(pad(name, 17)) \(size.width)x\(size.height) at 1/8: DC scans \(Measure.format(dc)) ms, TurboJPEG \(Measure.format(whole)) ms (\(Measure.format(whole / dc, 1))x); coefficients held \((blocks * 4) >> 10) KiB against \((blocks * 128) >> 20) MiB")
        }

        // Throughput: distinct crop windows of the baseline photo, so nothing is reused.
        let path = subjects[0].path
        let windows = (0..<120).map { CropWindow(x: Double($0 % 12) * 0.05, y: Double($0 / 12) * 0.03, width: 0.4, height: 0.6) }
        let oneWorker = throughput(workers: 1, path: path, windows: windows)
        let twoWorkers = throughput(workers: 2, path: path, windows: windows)
        print("thumbnails per second (40x12, baseline, 120 distinct crops): 1 worker \(Measure.format(oneWorker, 1)), 2 workers \(Measure.format(twoWorkers, 1)) (\(Measure.format(twoWorkers / oneWorker, 2))x)")
        // The WebP's thumbnail against the JPEG's, in this run (issue 45's bound: 1.5x).
        for (label, jpeg, other) in [("2560x1600", subjects[0].path, webp), ("640x400 previews", previewJPEG, previewWebP)] {
            if let thumbnails = webpRatio(jpeg: jpeg, webp: other, preparer: preparer) {
                print("WebP thumbnail 40x12 against the JPEG's, \(label): \(Measure.format(thumbnails.webp)) ms / \(Measure.format(thumbnails.jpeg)) ms = \(Measure.format(thumbnails.webp / thumbnails.jpeg, 2))x")
            }
        }
        if json, let baseline {
            print("{\"thumb_ms_1worker\":\(Measure.json(baseline.thumb)),\"thumbs_per_s_1worker\":\(Measure.json(oneWorker)),\"thumbs_per_s_2workers\":\(Measure.json(twoWorkers)),\"chafa_cli_ms\":\(Measure.json(baseline.cli)),\"prepared_bytes_40x12\":\(baseline.bytes)}")
        }
    }

    /// `pixels` as a lossy WebP file at `path` (libwebp's encoder).
    static func writeWebP(_ pixels: PixelBuffer, quality: Float, to path: String) throws {
        var output: UnsafeMutablePointer<UInt8>?
        let size = pixels.bytes.withUnsafeBufferPointer { cif_webp_encode($0.baseAddress, Int32(pixels.width), Int32(pixels.height), quality, &output) }
        guard size > 0, let output else { throw ValidationError("libwebp could not encode the benchmark's WebP") }
        defer { cif_free(output) }
        try Data(bytes: output, count: size).write(to: URL(fileURLWithPath: path))
    }

    /// Medians of a whole 40×12 preparation of each, interleaved run by run.
    func webpRatio(jpeg: String, webp: String, preparer: ImagePreparer) -> (jpeg: Double, webp: Double)? {
        var jpegTimes: [Double] = [], webpTimes: [Double] = []
        for _ in 0..<max(runs, 5) {
            jpegTimes.append(median(runs: 1) { _ = try? preparer.prepare(AssetID(path: jpeg), columns: 40, rows: 12) })
            webpTimes.append(median(runs: 1) { _ = try? preparer.prepare(AssetID(path: webp), columns: 40, rows: 12) })
        }
        let middle = { (values: [Double]) in values.sorted()[values.count / 2] }
        return (middle(jpegTimes), middle(webpTimes))
    }

    func median(runs count: Int? = nil, _ body: () -> Void) -> Double {
        body()  // warm-up
        return Measure.median((0..<(count ?? runs)).map { _ in Measure.wall(body).0.milliseconds })
    }

    /// Thumbnails per second with `workers` threads, each with its own preparer.
    func throughput(workers: Int, path: String, windows: [CropWindow]) -> Double {
        let next = NSLock()
        nonisolated(unsafe) var index = 0
        let group = DispatchGroup()
        let (time, _) = Measure.wall {
            for _ in 0..<workers {
                Thread.detachNewThread {
                    group.enter()
                    defer { group.leave() }
                    let preparer = ImagePreparer(colorMode: .truecolor)
                    while true {
                        next.lock()
                        let i = index
                        index += 1
                        next.unlock()
                        guard i < windows.count else { return }
                        _ = try? preparer.prepare(AssetID(path: path, window: windows[i]), columns: 40, rows: 12)
                    }
                }
            }
            usleep(1000)
            group.wait()
        }
        return Double(windows.count) / (time.milliseconds / 1000)
    }

    static func findChafa() -> String? {
        ["/usr/bin/chafa", "/usr/local/bin/chafa"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The CLI end to end (process start included, as a user would run it).
    static func runChafa(_ tool: String, _ path: String, _ columns: Int, _ rows: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--format", "symbols", "--symbols", CellConverter.defaultSymbols, "--colors", "full",
                             "--size", "\(columns)x\(rows)", "--stretch", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
    }
}

import Foundation
import ImagePipeline

/// The same thumbnails through the sixel encoders a person could use instead: chafa's
/// (`chafa -f sixel`) and libsixel's (`img2sixel`), each given the exact pixels the app
/// encodes (a PPM at the thumbnail's size) and read back with ``SixelDecoder``, so that
/// bytes a pixel and the colour error are counted the same way for all (issue 46).
/// A peer that is not installed, or whose picture comes back at another size, is said so.
enum SixelPeers {
    struct Peer {
        let name: String
        /// The program that must be installed.
        let tool: String
        /// The command line for one PPM file at `width`×`height` pixels.
        let arguments: (_ file: String, _ width: Int, _ height: Int) -> [String]
    }

    /// chafa sizes its sixel output in cells and takes a cell's pixels from its terminal's
    /// window size (`TIOCGWINSZ`), else it assumes 8×8: it runs on a pseudo-terminal that
    /// says 160×48 cells of the app's cell (`onAPty`: `scripts/on_a_pty.py`).

    static func peers(colours: Int, cellWidth: Int, cellHeight: Int, onAPty: String) -> [Peer] {
        [
            Peer(name: "chafa -f sixel", tool: "chafa") { file, width, height in
                ["python3", onAPty, "160", "48", "\(cellWidth)", "\(cellHeight)",
                 "chafa", "-f", "sixel", "--animate", "off", "--colors", colours > 16 ? "256" : "16",
                 "--size", "\(width / cellWidth)x\(height / cellHeight)", "--stretch", file]
            },
            Peer(name: "img2sixel -p \(colours)", tool: "img2sixel") { file, width, height in
                ["img2sixel", "-p", "\(colours)", "-w", "\(width)", "-h", "\(height)", file]
            },
        ]
    }

    /// One line per peer: bytes a pixel and RMS error over every thumbnail it drew at the
    /// thumbnail's size, with how many it drew so.
    /// With `pages`, each peer's sixel of every thumbnail is kept there by the peer's name
    /// (for a page of them, ``page(_:columns:rows:)``).
    static func compare(_ thumbnails: [PixelBuffer], colours: Int, cellWidth: Int, cellHeight: Int, onAPty: String,
                        outputs: ((String, [[UInt8]]) -> Void)? = nil) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sixel-peers-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, thumbnail) in thumbnails.enumerated() {
            let file = folder.appendingPathComponent("\(index).ppm").path
            try ppm(thumbnail).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        var lines: [String] = []
        for peer in peers(colours: colours, cellWidth: cellWidth, cellHeight: cellHeight, onAPty: onAPty) {
            guard which(peer.tool), which("python3") else {
                lines.append("\(pad(peer.name, 24)) not installed")
                continue
            }
            var bytes = 0, pixels = 0, drawn = 0, squared = 0.0, sizes: Set<String> = []
            var images: [[UInt8]] = []
            defer { outputs?(peer.name, images) }
            for (thumbnail, file) in zip(thumbnails, files) {
                let output = try run(peer.arguments(file, thumbnail.width, thumbnail.height))
                images.append(output.firstIndex(of: 0x1B).map { Array(output[$0...]) } ?? [])
                guard let start = output.firstIndex(of: 0x1B), let decoded = SixelDecoder.decode(Array(output[start...])) else {
                    sizes.insert("no sixel")
                    continue
                }
                // Sixel rows come in bands of 6: an encoder may stop at the band below or
                // above the last row (chafa: 90 of 91). Compared over the rows both have.
                guard decoded.width == thumbnail.width, abs(decoded.height - thumbnail.height) < 6 else {
                    sizes.insert("\(decoded.width)x\(decoded.height)")
                    continue
                }
                if decoded.height != thumbnail.height { sizes.insert("drawn \(decoded.height) rows of \(thumbnail.height)") }
                drawn += 1
                bytes += output.count
                pixels += thumbnail.width * min(thumbnail.height, decoded.height)
                squared += squaredError(thumbnail, decoded)
            }
            guard drawn > 0 else {
                lines.append("\(pad(peer.name, 24)) drew no thumbnail at its size (\(sizes.sorted().joined(separator: ", ")))")
                continue
            }
            let rms = (squared / Double(pixels * 3)).squareRoot()
            let others = sizes.isEmpty ? "" : "; \(thumbnails.count - drawn) not drawn; \(sizes.sorted().joined(separator: ", "))"
            lines.append("\(pad(peer.name, 24)) \(pad(String(format: "%.2f", Double(bytes) / Double(pixels)), 10)) \(pad(String(format: "%.1f", rms), 11)) \(bytes / drawn)\(others)")
        }
        return lines
    }

    /// Twenty thumbnails as the grid places them, five a row, each image at its top-left
    /// cell (CUP): the peers' counterpart of ``SixelBench/page``.
    static func page(_ images: [[UInt8]], columns: Int, rows: Int) -> Data {
        var bytes: [UInt8] = []
        for index in 0..<20 where !images.isEmpty {
            let top = 1 + (index / 5) * (rows + 3), left = 1 + (index % 5) * (columns + 2)
            bytes += Array("\u{1B}[\(top);\(left)H".utf8) + images[index % images.count]
        }
        return Data(bytes)
    }

    /// `b` against `a`'s rows from `top`, pixel by pixel over what both have (a whole
    /// picture, or one strip of it).
    static func squaredError(_ a: PixelBuffer, _ b: PixelBuffer, top: Int = 0) -> Double {
        var sum = 0.0
        for y in 0..<min(a.height - top, b.height) {
            for x in 0..<min(a.width, b.width) {
                let p = a.pixel(x: x, y: top + y), q = b.pixel(x: x, y: y)
                for (u, v) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] {
                    let d = Double(u) - Double(v)
                    sum += d * d
                }
            }
        }
        return sum
    }

    static func ppm(_ image: PixelBuffer) -> Data {
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        data.reserveCapacity(data.count + image.width * image.height * 3)
        for index in stride(from: 0, to: image.bytes.count, by: 4) {
            data.append(contentsOf: image.bytes[index..<index + 3])
        }
        return data
    }

    static func which(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// The tool's standard output (its standard error is dropped: only the bytes it would
    /// send a terminal count).
    static func run(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm-256color"]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }
}

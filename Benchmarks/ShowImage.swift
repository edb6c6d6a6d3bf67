import ArgumentParser
import ImagePipeline

/// Prints a prepared image with colour escapes: for looking at symbol sets and colour
/// modes in a terminal (DECISIONS.md, D-008).
struct ShowImage: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a photo as prepared cells.")

    @Argument var path: String
    @Option var columns = 40
    @Option var rows = 12
    @Option var mode: String = "truecolor"
    @Option var symbols = CellConverter.defaultSymbols

    func run() throws {
        guard let colorMode = CellColorMode(rawValue: mode) else { throw ValidationError("mode: one of \(CellColorMode.allCases.map(\.rawValue))") }
        let converter = CellConverter(colorMode: colorMode, symbols: symbols)
        let pixels = try ImagePreparer(colorMode: colorMode).decode(AssetID(path: path), columns: columns, rows: rows)
        let image = converter.convert(pixels, columns: columns, rows: rows)
        for row in 0..<image.rows {
            var line = ""
            for column in 0..<image.columns {
                let cell = image.rawCell(column: column, row: row)
                line += Self.sgr(cell.foreground, background: false, mode: colorMode) + Self.sgr(cell.background, background: true, mode: colorMode)
                line.append(cell.glyph)
            }
            print(line + "\u{1B}[0m")
        }
    }

    static func sgr(_ color: UInt32, background: Bool, mode: CellColorMode) -> String {
        guard color != CellImage.noColor, mode != .monochrome else { return "" }
        let base = background ? 48 : 38
        if mode == .truecolor { return "\u{1B}[\(base);2;\(color >> 16 & 0xFF);\(color >> 8 & 0xFF);\(color & 0xFF)m" }
        return "\u{1B}[\(base);5;\(color)m"
    }
}

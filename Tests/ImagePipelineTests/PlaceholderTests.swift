import CellCanvas
import CoreKit
@testable import ImagePipeline
import Testing

/// A placeholder maps each grid colour once and each column's and row's grid place once;
/// these check it gives, cell for cell, what mapping every cell on its own gives.
struct PlaceholderTests {
    /// The placeholder's colours as mapping cell by cell computes them (the rule the
    /// catalogue documents), for a grid known to the catalogue.
    private static func reference(grid: (columns: Int, rows: Int, rgb: [UInt32]), window: CropWindow, columns: Int, rows: Int,
                                  mode: CellColorMode) -> [UInt32] {
        var background: [UInt32] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let u = window.x + (Double(column) + 0.5) / Double(columns) * window.width
                let v = window.y + (Double(row) + 0.5) / Double(rows) * window.height
                let gx = min(Int(u * Double(grid.columns)), grid.columns - 1)
                let gy = min(Int(v * Double(grid.rows)), grid.rows - 1)
                background.append(PaletteMapper.color(grid.rgb[gy * grid.columns + gx], in: mode))
            }
        }
        return background
    }

    @Test(arguments: CellColorMode.allCases)
    func everyCellHasTheColourOfItsPlaceInTheGrid(mode: CellColorMode) {
        var random = SplitMix64(seed: 25)
        var catalog = PlaceholderCatalog()
        for photo in 0..<40 {
            let grid = (columns: Int.random(in: 1...9, using: &random), rows: Int.random(in: 1...7, using: &random))
            let rgb = (0..<grid.columns * grid.rows).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) }
            let url = "https://example.test/\(photo).jpg"
            catalog.add(columns: grid.columns, rows: grid.rows, rgb: rgb, forURL: url)
            let x = Double.random(in: 0..<0.5, using: &random), y = Double.random(in: 0..<0.5, using: &random)
            let window = CropWindow(x: x, y: y, width: Double.random(in: 0.1...(1 - x), using: &random),
                                    height: Double.random(in: 0.1...(1 - y), using: &random))
            let columns = Int.random(in: 1...40, using: &random), rows = Int.random(in: 1...12, using: &random)
            let image = catalog.placeholder(for: AssetID(path: url, window: window), columns: columns, rows: rows, colorMode: mode)
            #expect(image.background == Self.reference(grid: (grid.columns, grid.rows, rgb), window: window, columns: columns, rows: rows, mode: mode),
                    "photo \(photo): \(grid.columns)×\(grid.rows) grid, \(window), \(columns)×\(rows) cells")
            #expect(image.glyphs.allSatisfy { $0 == 0x20 } && image.foreground.allSatisfy { $0 == CellImage.noColor })
        }
        // A photo with no grid: neutral grey everywhere.
        let unknown = catalog.placeholder(for: AssetID(path: "/nowhere.jpg"), columns: 7, rows: 3, colorMode: mode)
        #expect(unknown.background == [UInt32](repeating: PaletteMapper.color(0x5A5A5A, in: mode), count: 21))
    }

    @Test(arguments: [8, 16])
    func theNearestStandardColourIsTheFirstOfTheNearest(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        let colours = (0..<2000).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) }
            + ColorPalette.standard.map { UInt32($0.0 << 16 | $0.1 << 8 | $0.2) }
            + [0x000000, 0xFFFFFF, 0x808080, 0x5A5A5A, 0x7F7F7F]
        for rgb in colours {
            let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
            let distances = ColorPalette.standard.prefix(count).map { ($0.0 - r) * ($0.0 - r) + ($0.1 - g) * ($0.1 - g) + ($0.2 - b) * ($0.2 - b) }
            #expect(ColorPalette.basic(rgb, count: count) == distances.firstIndex(of: distances.min()!)!, "\(String(rgb, radix: 16))")
        }
    }
}

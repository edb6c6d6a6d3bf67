import Foundation

/// Tiny stand-ins shown until an image is prepared: each photo's average colours on a
/// coarse grid, read once from `placeholders.json`, so a placeholder for any crop window
/// and size is a few lookups, never a decode.
public struct PlaceholderCatalog: Sendable {
    struct Grid: Sendable {
        let columns: Int
        let rows: Int
        let rgb: [UInt32]
    }

    private let grids: [String: Grid]

    public init() { grids = [:] }

    /// Reads `placeholders.json` of an assets folder; file paths in it are relative to it.
    public init(contentsOf url: URL) throws {
        struct Entry: Decodable {
            let file: String
            let grid: [Int]
            let rgb: String
        }
        let entries = try JSONDecoder().decode([String: Entry].self, from: Data(contentsOf: url))
        let folder = url.deletingLastPathComponent()
        var grids: [String: Grid] = [:]
        for entry in entries.values where entry.grid.count == 2 && entry.rgb.count == entry.grid[0] * entry.grid[1] * 6 {
            var values: [UInt32] = []
            values.reserveCapacity(entry.grid[0] * entry.grid[1])
            var index = entry.rgb.startIndex
            while index < entry.rgb.endIndex {
                let next = entry.rgb.index(index, offsetBy: 6)
                values.append(UInt32(entry.rgb[index..<next], radix: 16) ?? 0x808080)
                index = next
            }
            grids[folder.appendingPathComponent(entry.file).standardizedFileURL.path] = Grid(columns: entry.grid[0], rows: entry.grid[1], rgb: values)
        }
        self.grids = grids
    }

    public var count: Int { grids.count }

    /// A placeholder for `asset` on a `columns` × `rows` canvas: blank cells coloured like
    /// the region of the photo they stand for; neutral grey for a photo with no grid.
    /// - Complexity: O(cells).
    public func placeholder(for asset: AssetID, columns: Int, rows: Int, colorMode: CellColorMode) -> CellImage {
        let grid = grids[URL(fileURLWithPath: asset.path).standardizedFileURL.path]
        var background = [UInt32](repeating: 0, count: columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                var rgb: UInt32 = 0x5A5A5A
                if let grid {
                    let u = asset.window.x + (Double(column) + 0.5) / Double(columns) * asset.window.width
                    let v = asset.window.y + (Double(row) + 0.5) / Double(rows) * asset.window.height
                    let gx = min(Int(u * Double(grid.columns)), grid.columns - 1)
                    let gy = min(Int(v * Double(grid.rows)), grid.rows - 1)
                    rgb = grid.rgb[gy * grid.columns + gx]
                }
                background[row * columns + column] = PaletteMapper.color(rgb, in: colorMode)
            }
        }
        return CellImage(columns: columns, rows: rows, colorMode: colorMode,
                         glyphs: .init(repeating: 0x20, count: columns * rows),
                         foreground: .init(repeating: CellImage.noColor, count: columns * rows), background: background)
    }
}

/// 24-bit colours to what a colour mode stores.
public enum PaletteMapper {
    public static func color(_ rgb: UInt32, in mode: CellColorMode) -> UInt32 {
        let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
        switch mode {
        case .truecolor: return rgb
        case .monochrome: return CellImage.noColor
        case .palette240: return UInt32(xterm256(r, g, b))
        case .palette16: return UInt32(nearestBasic(r, g, b, bright: true))
        case .palette8: return UInt32(nearestBasic(r, g, b, bright: false))
        }
    }

    /// The nearest of the 6×6×6 cube (16–231) and the grey ramp (232–255).
    static func xterm256(_ r: Int, _ g: Int, _ b: Int) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func level(_ v: Int) -> Int { levels.indices.min { abs(levels[$0] - v) < abs(levels[$1] - v) }! }
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cube = 16 + 36 * lr + 6 * lg + lb
        let cubeError = sq(levels[lr] - r) + sq(levels[lg] - g) + sq(levels[lb] - b)
        let grey = min(max((r + g + b) / 3 - 8, 0) / 10, 23)
        let greyValue = 8 + grey * 10
        let greyError = sq(greyValue - r) + sq(greyValue - g) + sq(greyValue - b)
        return greyError < cubeError ? 232 + grey : cube
    }

    static func nearestBasic(_ r: Int, _ g: Int, _ b: Int, bright: Bool) -> Int {
        let base: [(Int, Int, Int)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229)]
        let brights: [(Int, Int, Int)] = [(127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        let palette = bright ? base + brights : base
        return palette.indices.min { sq(palette[$0].0 - r) + sq(palette[$0].1 - g) + sq(palette[$0].2 - b) < sq(palette[$1].0 - r) + sq(palette[$1].1 - g) + sq(palette[$1].2 - b) }!
    }

    private static func sq(_ v: Int) -> Int { v * v }
}

import CellCanvas
import Foundation
import HashTreeCollections

/// Tiny stand-ins shown until an image is prepared: each photo's average colours on a
/// coarse grid, read once from `placeholders.json`, so a placeholder for any crop window
/// and size is a few lookups, never a decode.
public struct PlaceholderCatalog: Sendable {
    struct Grid: Sendable {
        let columns: Int
        let rows: Int
        let rgb: [UInt32]
    }

    private var grids: [String: Grid]
    /// Grids of remote photos (a feed's BlurHashes), by URL as given. It grows by a page of
    /// posts at a time on the main thread: a hash trie, so a new URL never rehashes the
    /// ones before it (a `Dictionary` took 10 ms when it doubled at 49,000 URLs; D-055).
    private var remoteGrids: TreeDictionary<String, Grid> = [:]

    /// No colours known: every placeholder is neutral.
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

    /// Photos it has colours for.
    public var count: Int { grids.count + remoteGrids.count }

    /// Colours for a photo that is not a file (a feed's preview URL): `rgb` is `columns` ×
    /// `rows` 0xRRGGBB values, row by row (a decoded BlurHash).
    public mutating func add(columns: Int, rows: Int, rgb: [UInt32], forURL url: String) {
        precondition(columns > 0 && rows > 0 && rgb.count == columns * rows, "PlaceholderCatalog.add: \(rgb.count) colours for \(columns)×\(rows)")
        remoteGrids[url] = Grid(columns: columns, rows: rows, rgb: rgb)
    }

    /// A placeholder for `asset` on a `columns` × `rows` canvas: blank cells coloured like
    /// the region of the photo they stand for; neutral grey for a photo with no grid.
    ///
    /// The frame loop makes one for every cell a jump shows (about 25 after `G`, 200 cells
    /// each), so a cell costs one lookup: each column's and row's place in the grid is
    /// computed once, and each grid colour is mapped to `colorMode` the first time a cell
    /// uses it. Mapped cell by cell, it was a quarter of the commit after a `G` over a feed.
    /// - Complexity: O(cells + columns + rows), and one palette search per grid colour used.
    public func placeholder(for asset: AssetID, columns: Int, rows: Int, colorMode: CellColorMode) -> CellImage {
        let count = columns * rows
        let background: [UInt32]
        if let grid = remoteGrids[asset.path] ?? grids[URL(fileURLWithPath: asset.path).standardizedFileURL.path] {
            let gridColumns = (0..<columns).map { column in
                min(Int((asset.window.x + (Double(column) + 0.5) / Double(columns) * asset.window.width) * Double(grid.columns)), grid.columns - 1)
            }
            let gridRows = (0..<rows).map { row in
                min(Int((asset.window.y + (Double(row) + 0.5) / Double(rows) * asset.window.height) * Double(grid.rows)), grid.rows - 1)
            }
            var mapped = [UInt32?](repeating: nil, count: grid.rgb.count)
            var colours = [UInt32]()
            colours.reserveCapacity(count)
            for gy in gridRows {
                for gx in gridColumns {
                    let index = gy * grid.columns + gx
                    if let colour = mapped[index] {
                        colours.append(colour)
                    } else {
                        let colour = PaletteMapper.color(grid.rgb[index], in: colorMode)
                        mapped[index] = colour
                        colours.append(colour)
                    }
                }
            }
            background = colours
        } else {
            background = [UInt32](repeating: PaletteMapper.color(0x5A5A5A, in: colorMode), count: count)
        }
        return CellImage(columns: columns, rows: rows, colorMode: colorMode,
                         glyphs: .init(repeating: 0x20, count: count),
                         foreground: .init(repeating: CellImage.noColor, count: count), background: background)
    }
}

/// 24-bit colours to what a colour mode stores.
public enum PaletteMapper {
    /// `rgb` as `mode` stores it: itself, or the nearest palette index.
    public static func color(_ rgb: UInt32, in mode: CellColorMode) -> UInt32 {
        switch mode {
        case .truecolor: rgb
        case .monochrome: CellImage.noColor
        case .palette240: UInt32(ColorPalette.xterm256(rgb))
        case .palette16: UInt32(ColorPalette.basic(rgb, count: 16))
        case .palette8: UInt32(ColorPalette.basic(rgb, count: 8))
        }
    }
}

import CellCanvas

/// iTerm2's inline images (``ITerm2Images``), a PNG per row of cells, drawn by the
/// presenter for `PixelCell` cells like sixel.
struct ITerm2Graphics: TerminalGraphics {
    let cell: (width: Int, height: Int)

    var cellPixels: (width: Int, height: Int)? { cell }
    var drawsPixelCells: Bool { true }
    var pixelBytesPerSecond: Int { 6 << 20 }

    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage {
        let (wide, tall) = PixelCell.clamped(columns: columns, rows: rows)
        let sized = cropped.filling(width: wide * cell.width, height: tall * cell.height)
        return CellImage(pixelImage: KittyGraphics.nextID(), columns: wide,
                         strips: try ITerm2Images.strips(of: sized, cellHeight: cell.height, columns: wide),
                         fallback: converters.cells.convert(sized, columns: wide, rows: tall).cells, reachesBelowItsRow: true)
    }
}

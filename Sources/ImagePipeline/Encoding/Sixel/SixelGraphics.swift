import CellCanvas

/// Sixel strips (``SixelEncoder``), one per row of cells, and the whole picture as one image,
/// in at most `colors` colours; the presenter draws them for `PixelCell` cells.
struct SixelGraphics: TerminalGraphics {
    let cell: (width: Int, height: Int)
    let colors: Int

    var cellPixels: (width: Int, height: Int)? { cell }
    var drawsPixelCells: Bool { true }
    /// About what xterm parses and draws in a second here: a fast scroll shows symbols and
    /// the pixels follow as the motion settles.
    var pixelBytesPerSecond: Int { 6 << 20 }
    /// xterm's work on one sixel image beside its bytes, in bytes (`PixelImage.costPerImage`):
    /// a page of 20 thumbnails took 45 ms as 140 strips (240 KB) and 16 ms as 20 images
    /// (195 KB), about 0.22 ms an image and 0.06 ms a kilobyte (`scripts/sixel_parse.py`, D-077).
    static let costPerImage = 3_700

    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage {
        let (wide, tall) = PixelCell.clamped(columns: columns, rows: rows)
        let sized = cropped.filling(width: wide * cell.width, height: tall * cell.height)
        let encoded = SixelEncoder.encode(sized, cellHeight: cell.height, colors: colors)
        return CellImage(pixelImage: KittyGraphics.nextID(), columns: wide, strips: encoded.strips,
                         // From the pixels the strips show: the same picture, and a third of
                         // chafa's time of the decoded photo (D-068).
                         fallback: converters.cells.convert(sized, columns: wide, rows: tall).cells, reachesBelowItsRow: true,
                         whole: encoded.whole, costPerImage: Self.costPerImage)
    }
}

import CellCanvas

/// A mosaic of symbol cells (chafa) in the cells' colours: any terminal.
struct SymbolGraphics: TerminalGraphics {
    var cellPixels: (width: Int, height: Int)? { nil }
    var drawsPixelCells: Bool { false }
    /// Nothing is kept by id: a mosaic is cells.
    var keepsImagesByID: Bool { false }

    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage {
        converters.cells.convert(cropped, columns: columns, rows: rows)
    }
}

/// A mosaic in 24-bit colour the presenter writes itself (``TextStrips``), so it needs no
/// ncurses colour pair; the mosaic in the cells' colours is the fallback.
struct TruecolorSymbolGraphics: TerminalGraphics {
    var cellPixels: (width: Int, height: Int)? { nil }
    var drawsPixelCells: Bool { true }

    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage {
        let (wide, tall) = PixelCell.clamped(columns: columns, rows: rows)
        let mosaic = converters.truecolor().convert(cropped, columns: wide, rows: tall).cells
        return CellImage(pixelImage: KittyGraphics.nextID(), columns: wide, strips: TextStrips.strips(of: mosaic, columns: wide),
                         fallback: TextStrips.paletteCells(mosaic), reachesBelowItsRow: false)
    }
}

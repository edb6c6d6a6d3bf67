import CellCanvas

/// kitty graphics with Unicode placeholders: the PNG at exactly the placement's pixels (the
/// terminal scales nothing) and the placeholder cells that show it; the terminal keeps
/// the image until it is deleted.
///
/// The PNG is RGB when the thumbnail is opaque, with libpng's adaptive filters and default
/// compression (``KittyGraphics/png(of:)``): 37 % fewer bytes than the RGBA of libpng's fast
/// setting sent before, for 5–7 ms more of a worker's time a thumbnail; raw RGB through zlib
/// (`o=z`) is no smaller than a fast PNG (D-078, `destinations-bench kitty`).
struct KittyPlaceholderGraphics: TerminalGraphics {
    let cell: (width: Int, height: Int)
    /// Wrapped for tmux's passthrough.
    let throughTmux: Bool

    var cellPixels: (width: Int, height: Int)? { cell }
    var terminalKeepsImages: Bool { true }
    var drawsPixelCells: Bool { false }

    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage {
        let shown = min(rows, KittyGraphics.diacritics.count)
        let sized = cropped.filling(width: columns * cell.width, height: shown * cell.height)
        let id = KittyGraphics.nextID()
        let png = try KittyGraphics.png(of: sized)
        return CellImage(kittyImage: id, columns: columns, rows: shown, pixels: sized.width * sized.height,
                         transmission: KittyGraphics.transmission(png: png, id: id, columns: columns, rows: shown, throughTmux: throughTmux))
    }

    func deletion(of id: UInt32) -> [UInt8] { KittyGraphics.deletion(id: id, throughTmux: throughTmux) }
}

/// kitty graphics by direct placement, for terminals without Unicode placeholders: the PNG
/// transmitted once, a placement per row of cells that the presenter draws like sixel
/// strips and deletes when their cells show something else.
struct KittyPlacementGraphics: TerminalGraphics {
    let cell: (width: Int, height: Int)

    var cellPixels: (width: Int, height: Int)? { cell }
    var terminalKeepsImages: Bool { true }
    var drawsPixelCells: Bool { true }

    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage {
        let (wide, tall) = PixelCell.clamped(columns: columns, rows: rows)
        let sized = cropped.filling(width: wide * cell.width, height: tall * cell.height)
        let id = KittyGraphics.nextID()
        let png = try KittyGraphics.png(of: sized)
        return CellImage(pixelImage: id, columns: wide, strips: KittyGraphics.placements(id: id, columns: wide, rows: tall, cellPixels: cell),
                         fallback: converters.cells.convert(sized, columns: wide, rows: tall).cells, reachesBelowItsRow: false,
                         lingers: true, transmission: KittyGraphics.transmissionOnly(png: png, id: id), pixels: sized.width * sized.height)
    }

    /// Placed images leave the terminal once the presenter has forgotten them.
    func deletion(of id: UInt32) -> [UInt8] { KittyGraphics.deletion(id: id) }
}

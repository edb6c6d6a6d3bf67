import CellCanvas

/// One way of drawing pictures in a terminal: what a picture becomes (cells, strips the
/// presenter writes, an image the terminal keeps) and what the terminal is told when one
/// is forgotten. Each protocol is one implementation in a folder of its own here
/// (`Symbols`, `Kitty`, `Sixel`, `ITerm2`), beside its encoder; ``ImageOutput`` names
/// them and chooses one.
///
/// To add a protocol: its encoder and a type implementing this in a new folder, a case of
/// ``ImageOutput`` and its line in ``ImageOutput/graphics`` (the registration); the app's
/// `GraphicsChoice` decides when a terminal gets it.
public protocol TerminalGraphics: Sendable {
    /// Pixels one cell stands for when a picture is prepared: the terminal's cell, or nil
    /// for a mosaic (chafa's sampling, ``ImagePreparer/pixelsPerCell``).
    var cellPixels: (width: Int, height: Int)? { get }
    /// The terminal keeps the images by id (kitty): those that leave the cache are deleted
    /// from it (``deletion(of:)``).
    var terminalKeepsImages: Bool { get }
    /// The presenter draws the images' cells from strips (`PixelImage`).
    var drawsPixelCells: Bool { get }
    /// Cells that show an image keep it from being deleted (false: nothing is kept by id).
    var keepsImagesByID: Bool { get }
    /// Pixel bytes a second the frames may send while the grid moves (past it, image rows
    /// show their fallback until later frames).
    var pixelBytesPerSecond: Int { get }
    /// What `cropped` pixels become for a `columns` × `rows` place, with `converters` for
    /// mosaics and fallbacks.
    func render(_ cropped: PixelBuffer, columns: Int, rows: Int, converters: GraphicsConverters) throws(ImageError) -> CellImage
    /// What the terminal is told when image `id` is forgotten (nothing, unless it keeps them).
    func deletion(of id: UInt32) -> [UInt8]
}

extension TerminalGraphics {
    /// Default: the terminal keeps nothing.
    public var terminalKeepsImages: Bool { false }
    /// Default: cells keep their image.
    public var keepsImagesByID: Bool { true }
    /// Default: 2 MiB a second (symbols in 24-bit colour, kitty).
    public var pixelBytesPerSecond: Int { 2 << 20 }
    /// Default: nothing to tell the terminal.
    public func deletion(of id: UInt32) -> [UInt8] { [] }
}

/// The mosaic makers a preparer owns (one per worker thread): in the cells' colours, and in
/// 24-bit colour for the protocols that write colour themselves.
public struct GraphicsConverters {
    /// The mosaic in the cells' colour mode (symbols, and every pixel protocol's fallback).
    public let cells: CellConverter
    /// A mosaic in 24-bit colour, made on first use.
    public let truecolor: () -> CellConverter
}

/// Pictures that name rows and columns in a cell (strips the presenter draws) are at most
/// this wide and tall.
extension PixelCell {
    static func clamped(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        (min(columns, maximumSide - 1), min(rows, maximumSide - 1))
    }
}

/// What a preparer makes of pixels: the terminal graphics chosen, by name.
public enum ImageOutput: Sendable {
    /// A mosaic of symbol cells (chafa): any terminal.
    case symbols
    /// kitty graphics (``KittyGraphics``): placeholder cells and the PNG they show, sized
    /// `cellPixels` per cell; wrapped for tmux's passthrough when `throughTmux`.
    case kitty(cellPixels: (width: Int, height: Int), throughTmux: Bool)
    /// kitty graphics by direct placement, for terminals without Unicode placeholders: the
    /// PNG, transmitted once, and a placement per row of cells (``KittyGraphics/placements(id:columns:rows:cellPixels:)``)
    /// the presenter draws for `PixelCell` cells like sixel strips, and deletes when
    /// their cells show something else (`PixelImage.lingers`).
    case kittyPlacement(cellPixels: (width: Int, height: Int))
    /// Sixel strips (``SixelEncoder``) of `cellPixels` per cell in at most `colors`
    /// colours, and `PixelCell` cells the presenter draws them for.
    case sixel(cellPixels: (width: Int, height: Int), colors: Int)
    /// A symbol mosaic in 24-bit colour that the presenter writes itself (``TextStrips``),
    /// through `PixelCell` cells like sixel, so it needs no ncurses colour pair; the
    /// mosaic in the 256-colour palette is the fallback.
    case truecolorSymbols
    /// iTerm2's inline images (``ITerm2Images``), a PNG per row of cells, through
    /// `PixelCell` cells like sixel.
    case iterm2(cellPixels: (width: Int, height: Int))

    /// The implementation: the one place a name becomes a protocol (the registration).
    public var graphics: any TerminalGraphics {
        switch self {
        case .symbols: SymbolGraphics()
        case .truecolorSymbols: TruecolorSymbolGraphics()
        case .kitty(let cell, let throughTmux): KittyPlaceholderGraphics(cell: cell, throughTmux: throughTmux)
        case .kittyPlacement(let cell): KittyPlacementGraphics(cell: cell)
        case .sixel(let cell, let colors): SixelGraphics(cell: cell, colors: colors)
        case .iterm2(let cell): ITerm2Graphics(cell: cell)
        }
    }

    /// The terminal keeps the images by kitty id (placeholders or direct placement): those
    /// that leave the cache are deleted from it.
    public var isKitty: Bool { graphics.terminalKeepsImages }
    /// The presenter draws the images' cells from strips (`PixelImage`): sixel, iTerm2
    /// images, 24-bit symbols, or kitty placements.
    public var drawsPixelCells: Bool { graphics.drawsPixelCells }
    /// The terminal keeps images by id (kitty) or the presenter does (sixel, 24-bit
    /// symbols): cells that show an image keep it from being deleted.
    public var keepsImagesByID: Bool { graphics.keepsImagesByID }
}

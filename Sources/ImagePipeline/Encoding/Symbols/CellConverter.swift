import CChafa

/// Turns pixels into terminal cells with libchafa; the only file that imports it.
///
/// Owns one canvas configuration, so use one converter per worker thread. The symbol set
/// `block+border+space-wide-inverted` gives a clean soft mosaic in fonts every terminal
/// has, and never a double-width glyph (DECISIONS.md, D-008).
public final class CellConverter {
    /// The symbol classes mosaics are drawn with (chafa's selector syntax).
    public static let defaultSymbols = "block+border+space-wide-inverted"

    /// The colours the cells use.
    public let colorMode: CellColorMode
    private let symbolMap: OpaquePointer
    private let config: OpaquePointer

    /// A converter to `colorMode` cells drawn with `symbols`; `workFactor` (0 to 1, chafa's
    /// default 0.5) is how hard chafa looks for each cell's best symbol.
    public init(colorMode: CellColorMode, symbols: String = CellConverter.defaultSymbols, workFactor: Float? = nil) {
        self.colorMode = colorMode
        Self.configureThreadsOnce
        symbolMap = chafa_symbol_map_new()
        var error: UnsafeMutablePointer<GError>?
        if chafa_symbol_map_apply_selectors(symbolMap, symbols, &error) == 0 {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            preconditionFailure("CellConverter: symbol selectors '\(symbols)' rejected by chafa: \(text)")
        }
        config = chafa_canvas_config_new()
        chafa_canvas_config_set_symbol_map(config, symbolMap)
        chafa_canvas_config_set_canvas_mode(config, Self.chafaMode(colorMode))
        if colorMode == .monochrome { chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS) }
        if let workFactor { chafa_canvas_config_set_work_factor(config, workFactor) }
    }

    deinit {
        chafa_canvas_config_unref(config)
        chafa_symbol_map_unref(symbolMap)
    }

    /// chafa's own threads do not help canvases this small and would oversubscribe the
    /// worker pool (IMAGES.md, trap 10); the setting is process-wide, so it is made once.
    private static let configureThreadsOnce: Void = { chafa_set_n_threads(1) }()

    /// The image drawn on a `columns` × `rows` canvas (stretched to fill it: callers crop
    /// to the canvas's aspect first).
    /// - Complexity: O(pixels + cells).
    public func convert(_ image: PixelBuffer, columns: Int, rows: Int) -> CellImage {
        precondition(columns > 0 && rows > 0, "CellConverter.convert needs a canvas of at least 1×1 cells, got \(columns)×\(rows)")
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        image.bytes.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress,
                                         Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        let count = columns * rows
        var glyphs = [UInt32](repeating: 0x20, count: count)
        var foreground = [UInt32](repeating: 0, count: count)
        var background = [UInt32](repeating: 0, count: count)
        for y in 0..<rows {
            for x in 0..<columns {
                let i = y * columns + x
                glyphs[i] = UInt32(chafa_canvas_get_char_at(canvas, Int32(x), Int32(y)))
                var fg: Int32 = 0, bg: Int32 = 0
                if colorMode == .truecolor || colorMode == .monochrome {
                    chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                } else {
                    chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                }
                foreground[i] = fg < 0 ? CellImage.noColor : UInt32(fg)
                background[i] = bg < 0 ? CellImage.noColor : UInt32(bg)
            }
        }
        return CellImage(columns: columns, rows: rows, colorMode: colorMode, glyphs: glyphs, foreground: foreground, background: background)
    }

    private static func chafaMode(_ mode: CellColorMode) -> ChafaCanvasMode {
        switch mode {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .palette240: CHAFA_CANVAS_MODE_INDEXED_240
        case .palette16: CHAFA_CANVAS_MODE_INDEXED_16
        case .palette8: CHAFA_CANVAS_MODE_INDEXED_8
        case .monochrome: CHAFA_CANVAS_MODE_FGBG
        }
    }
}

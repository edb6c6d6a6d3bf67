import CellCanvas

/// iTerm2's inline images (OSC 1337 `File=`), one per row of cells, for the presenter's
/// pixel cells like sixel strips (`PixelCell`): iTerm2 (and WezTerm, mintty, Konsole …)
/// draws such an image at the cursor, scaled to the cells named, and keeps it with those
/// cells as they scroll; text written over a cell replaces it.
///
/// Each strip is a PNG of one row of cells (libpng's fast mode), base64 in the sequence,
/// `width` in cells, `height=1`, no aspect kept (the PNG already has the cells' shape), and
/// `doNotMoveCursor=1` (the presenter puts the cursor back anyway).
public enum ITerm2Images {
    /// One strip per `cellHeight` rows of `pixels`, each `columns` cells wide.
    public static func strips(of pixels: PixelBuffer, cellHeight: Int, columns: Int) throws(ImageError) -> [[UInt8]] {
        precondition(cellHeight > 0 && columns > 0, "ITerm2Images: cell height \(cellHeight), \(columns) columns")
        var strips: [[UInt8]] = []
        var top = 0
        while top < pixels.height {
            let rows = min(cellHeight, pixels.height - top)
            let slice = PixelBuffer(width: pixels.width, height: rows,
                                    bytes: Array(pixels.bytes[(top * pixels.width * 4)..<((top + rows) * pixels.width * 4)]))
            let png = try PNGCodec.encode(slice, fast: true)
            var strip = Array("\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=1;preserveAspectRatio=0;doNotMoveCursor=1:".utf8)
            strip += KittyGraphics.base64(png)
            strip.append(0x07)
            strips.append(strip)
            top += rows
        }
        return strips
    }

    /// What a terminal reads from a strip: its arguments and the file's bytes (nil when it
    /// is not an inline image).
    public static func decode(_ strip: [UInt8]) -> (arguments: [String: String], file: [UInt8])? {
        let text = String(decoding: strip, as: UTF8.self)
        guard text.hasPrefix("\u{1B}]1337;File="), text.hasSuffix("\u{07}"), let colon = text.firstIndex(of: ":") else { return nil }
        let head = text[text.index(text.startIndex, offsetBy: 11)..<colon]
        var arguments: [String: String] = [:]
        for pair in head.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { arguments[String(parts[0])] = String(parts[1]) }
        }
        let payload = text[text.index(after: colon)..<text.index(before: text.endIndex)]
        return base64Decode(Array(payload.utf8)).map { (arguments, $0) }
    }

    private static func base64Decode(_ text: [UInt8]) -> [UInt8]? {
        var value: [UInt8: UInt8] = [:]
        for (index, byte) in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8).enumerated() { value[byte] = UInt8(index) }
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        for byte in text where byte != UInt8(ascii: "=") {
            guard let six = value[byte] else { return nil }
            buffer = buffer << 6 | Int(six)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> bits))
            }
        }
        return out
    }
}

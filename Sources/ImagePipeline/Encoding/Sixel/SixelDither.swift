/// Ordered dithering for ``SixelEncoder``: each pixel is nudged by a 4×4 Bayer threshold
/// before it is mapped to the nearest palette entry, so that an area between two entries
/// shows a pattern of both whose mean is its colour, where plain mapping shows a band of
/// one. Ordered rather than error diffusion: the pattern repeats every 4 pixels, so a
/// sixel band's runs stay short patterns, not noise, and a strip encodes the same whatever
/// the strips around it (issue 46; measured, and not the app's default: D-084).
public enum SixelDither {
    /// The 4×4 Bayer matrix, 0–15.
    static let bayer: [Int32] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// How far apart the palette's entries are, per channel: the median distance from an
    /// entry to its nearest other, over √3 (a nudge moves all three channels at once, along
    /// the grey axis). A pixel is nudged by up to half of it either way, so a colour
    /// between two neighbours becomes a pattern of both.
    static func spacing(of palette: [(r: UInt8, g: UInt8, b: UInt8)]) -> Int32 {
        guard palette.count > 1 else { return 0 }
        let nearest = palette.indices.map { i in
            palette.indices.filter { $0 != i }.map { j -> Double in
                let dr = Double(palette[i].r) - Double(palette[j].r), dg = Double(palette[i].g) - Double(palette[j].g)
                let db = Double(palette[i].b) - Double(palette[j].b)
                return (dr * dr + dg * dg + db * db).squareRoot()
            }.min() ?? 0
        }.sorted()
        return Int32((nearest[nearest.count / 2] / 3.0.squareRoot()).rounded())
    }

    /// Each pixel's index in `palette` after the nudge (`pixels` RGBA, alpha ignored).
    /// Nearest entries are found per 5-5-5 bin of the nudged colour, each bin once.
    /// - Complexity: O(pixels + bins met × palette entries).
    static func indices(of pixels: PixelBuffer, palette: [(r: UInt8, g: UInt8, b: UInt8)]) -> [UInt8] {
        // (2t − 15) / 32 of the spacing: from −15/32 to +15/32, mean 0.
        let spacing = spacing(of: palette)
        let offsets = bayer.map { ($0 * 2 - 15) * spacing / 32 }
        var entryOfBin = [Int16](repeating: -1, count: 1 << 15)
        let reds = palette.map { Int32($0.r) }, greens = palette.map { Int32($0.g) }, blues = palette.map { Int32($0.b) }
        var indices = [UInt8](repeating: 0, count: pixels.width * pixels.height)
        let width = pixels.width
        for y in 0..<pixels.height {
            for x in 0..<width {
                let i = y * width + x, offset = offsets[(y & 3) << 2 | (x & 3)]
                func nudged(_ channel: UInt8) -> Int32 { min(255, max(0, Int32(channel) + offset)) }
                let r = nudged(pixels.bytes[i * 4]), g = nudged(pixels.bytes[i * 4 + 1]), b = nudged(pixels.bytes[i * 4 + 2])
                let bin = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
                if entryOfBin[bin] < 0 {
                    let (cr, cg, cb) = ((r >> 3) << 3 | 4, (g >> 3) << 3 | 4, (b >> 3) << 3 | 4)
                    var best = 0, bestDistance = Int32.max
                    for k in 0..<reds.count {
                        let dr = cr - reds[k], dg = cg - greens[k], db = cb - blues[k]
                        let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
                        if distance < bestDistance { (best, bestDistance) = (k, distance) }
                    }
                    entryOfBin[bin] = Int16(best)
                }
                indices[i] = UInt8(entryOfBin[bin])
            }
        }
        return indices
    }
}

/// Pixels to sixel (DEC's bitmap graphics: xterm `-ti vt340`, foot, WezTerm, mlterm,
/// Windows Terminal …), one strip per row of cells.
///
/// A sixel image is drawn at the cursor and then belongs to the text cells it covers: the
/// terminal scrolls it with them and text written over a cell replaces its pixels. So a
/// thumbnail is made of strips one cell tall, each a complete sixel image: a frame that
/// exposes some rows of a thumbnail sends those rows' strips and nothing else (the
/// presenter's job), and a thumbnail cut by the viewport's edge shows its visible rows.
///
/// Colours: one palette per thumbnail (at most `colors` entries, `SixelPalette`'s median
/// cut of its 5-5-5 histogram), mapped by nearest entry; every strip defines only the
/// registers it uses. Pixels below a strip's last full band are left
/// unset and the image is sent with transparent background (P2 = 1), so a strip whose
/// height is not a multiple of 6 paints nothing on the row below. Runs off the main thread.
public enum SixelEncoder {
    /// The strips of `pixels` cut every `cellHeight` rows (the last may be shorter).
    /// - Complexity: O(pixels × colours used per 6-pixel band) to encode, plus
    ///   O(histogram cells used × colors) to build the palette.
    ///
    /// `coloursPerBand` caps the colours of each 6-pixel band (see `limitBand(_:width:rows:palette:cap:)`);
    /// nil keeps every colour of the palette. `dither`: ordered dithering (``SixelDither``)
    /// maps the pixels to the palette, measured against plain mapping in D-084.
    public static func strips(of pixels: PixelBuffer, cellHeight: Int, colors: Int = 256, coloursPerBand: Int? = defaultColoursPerBand,
                              dither: Bool = false) -> [[UInt8]] {
        precondition(cellHeight > 0 && colors >= 2, "SixelEncoder: cell height \(cellHeight), \(colors) colours")
        let (palette, indices) = quantize(pixels, colors: min(colors, 256), dither: dither)
        return strips(indices: indices, palette: palette, width: pixels.width, height: pixels.height, cellHeight: cellHeight, coloursPerBand: coloursPerBand)
    }

    /// The strips and the whole picture as one image (`PixelImage.whole`), in one palette.
    /// No whole image for a picture of one strip (it would be the same), nor for one taller
    /// than ``tallestWhole`` pixels.
    /// - Complexity: about twice ``strips(of:cellHeight:colors:coloursPerBand:dither:)``'s encoding;
    ///   the palette is made once.
    public static func encode(_ pixels: PixelBuffer, cellHeight: Int, colors: Int = 256, coloursPerBand: Int? = defaultColoursPerBand,
                              dither: Bool = false) -> (strips: [[UInt8]], whole: [UInt8]?) {
        precondition(cellHeight > 0 && colors >= 2, "SixelEncoder: cell height \(cellHeight), \(colors) colours")
        let (palette, indices) = quantize(pixels, colors: min(colors, 256), dither: dither)
        let strips = strips(indices: indices, palette: palette, width: pixels.width, height: pixels.height, cellHeight: cellHeight, coloursPerBand: coloursPerBand)
        guard pixels.height > cellHeight, pixels.height <= tallestWhole else { return (strips, nil) }
        let whole = Self.strips(indices: indices, palette: palette, width: pixels.width, height: pixels.height, cellHeight: pixels.height, coloursPerBand: coloursPerBand)
        return (strips, whole.first)
    }

    /// The tallest whole image made: xterm draws a sixel image up to its `maxGraphicSize`,
    /// 1000×1000 unless configured, and cuts what is beyond (strips, one cell tall, never are).
    public static let tallestWhole = 1000

    /// The picture's indexed pixels cut every `cellHeight` rows, each part one sixel image.
    static func strips(indices: [UInt8], palette: [(r: UInt8, g: UInt8, b: UInt8)], width: Int, height: Int, cellHeight: Int,
                       coloursPerBand: Int?) -> [[UInt8]] {
        var indices = indices
        var result: [[UInt8]] = []
        var top = 0
        while top < height {
            let rows = min(cellHeight, height - top)
            if let cap = coloursPerBand {
                // The strip's own bands: each strip starts its bands at its top row.
                for bandTop in stride(from: top, to: top + rows, by: 6) {
                    limitBand(&indices, width: width, rows: bandTop..<min(bandTop + 6, top + rows), palette: palette, cap: cap)
                }
            }
            result.append(strip(indices: indices, width: width, rows: top..<(top + rows), palette: palette))
            top += rows
        }
        return result
    }

    /// Colours a thumbnail's palette has by default (the registers a terminal is asked for):
    /// with `SixelPalette`'s median cut, 16 draw the bundled photos with less error than the
    /// 128 of the popular-cells palette did with 16 a band (RMS 8.0 against 12.5), in 27 %
    /// fewer bytes (0.86 a pixel against 1.18), by `destinations-bench sixel` (D-077). At 16,
    /// no band has more than ``defaultColoursPerBand``: the cap changes nothing.
    public static let defaultColors = 16

    /// Colours a band keeps by default, measured by `destinations-bench sixel` over the
    /// bundled photos at xterm's 6×13 cell (DECISIONS D-045): with 128 registers, 16 a band
    /// takes a thumbnail from 2.48 to 1.18 bytes a pixel (35 KB to 16.8 KB) for an RMS error
    /// of 12.5 instead of 8.5. Eight (0.75 bytes a pixel) showed bands across the photos in
    /// xterm; sixteen barely shows.
    public static let defaultColoursPerBand = 16

    /// Maps the rarest colours of one band onto the nearest of its `cap` most used ones.
    ///
    /// A sixel band costs one byte per column for *each* colour between that colour's
    /// first and last column, so a colour with three scattered pixels costs as much as
    /// one that fills the band: the bytes of a photo are mostly its rare colours. Keeping
    /// the `cap` most frequent (ties to the lower index) and moving each other pixel to the
    /// nearest kept colour bounds a band at `cap` × width bytes.
    /// - Complexity: O(pixels of the band + colours met × cap).
    static func limitBand(_ indices: inout [UInt8], width: Int, rows: Range<Int>, palette: [(r: UInt8, g: UInt8, b: UInt8)], cap: Int) {
        let span = (rows.lowerBound * width)..<(rows.upperBound * width)
        var population = [Int](repeating: 0, count: 256)
        var met: [Int] = []
        met.reserveCapacity(64)
        indices.withUnsafeBufferPointer { pixels in
            population.withUnsafeMutableBufferPointer { population in
                for i in span {
                    let colour = Int(pixels[i])
                    if population[colour] == 0 { met.append(colour) }
                    population[colour] &+= 1
                }
            }
        }
        guard met.count > cap else { return }
        let kept = Array(met.sorted { population[$0] > population[$1] || (population[$0] == population[$1] && $0 < $1) }.prefix(max(1, cap)))
        var target = [UInt8](repeating: 0, count: 256)
        for colour in met {
            var best = kept[0], bestDistance = Int.max
            for candidate in kept {
                let distance = paletteDistance(palette[colour], palette[candidate])
                if distance < bestDistance { (best, bestDistance) = (candidate, distance) }
            }
            target[colour] = UInt8(best)
        }
        target.withUnsafeBufferPointer { target in
            indices.withUnsafeMutableBufferPointer { pixels in
                for i in span { pixels[i] = target[Int(pixels[i])] }
            }
        }
    }

    /// The weighted RGB distance the palette is built with (green counts most).
    static func paletteDistance(_ a: (r: UInt8, g: UInt8, b: UInt8), _ b: (r: UInt8, g: UInt8, b: UInt8)) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }

    /// One complete sixel image of `rows` of the indexed pixels.
    ///
    /// Written for a decoding worker's time (it is most of a sixel thumbnail's cost besides
    /// the decode): one pass per band over unchecked buffers, numbers written as digits
    /// without making strings (D-068).
    static func strip(indices: [UInt8], width: Int, rows: Range<Int>, palette: [(r: UInt8, g: UInt8, b: UInt8)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * rows.count)
        // DCS P1=0 (aspect from the raster attributes) P2=1 (unset pixels stay) q,
        // then raster attributes: 1:1 pixels, width × height.
        out += [0x1B, UInt8(ascii: "P"), UInt8(ascii: "0"), UInt8(ascii: ";"), UInt8(ascii: "1"), UInt8(ascii: ";"), UInt8(ascii: "0"),
                UInt8(ascii: "q"), UInt8(ascii: "\""), UInt8(ascii: "1"), UInt8(ascii: ";"), UInt8(ascii: "1"), UInt8(ascii: ";")]
        appendDecimal(width, to: &out)
        out.append(UInt8(ascii: ";"))
        appendDecimal(rows.count, to: &out)
        return indices.withUnsafeBufferPointer { indices in
            var used = [Bool](repeating: false, count: palette.count)
            used.withUnsafeMutableBufferPointer { used in
                for i in (rows.lowerBound * width)..<(rows.upperBound * width) { used[Int(indices[i])] = true }
            }
            for (register, isUsed) in used.enumerated() where isUsed {
                let colour = palette[register]
                // Register colours are percentages in the RGB space (type 2).
                func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }
                out.append(UInt8(ascii: "#"))
                appendDecimal(register, to: &out)
                out += [UInt8(ascii: ";"), UInt8(ascii: "2"), UInt8(ascii: ";")]
                appendDecimal(percent(colour.r), to: &out)
                out.append(UInt8(ascii: ";"))
                appendDecimal(percent(colour.g), to: &out)
                out.append(UInt8(ascii: ";"))
                appendDecimal(percent(colour.b), to: &out)
            }
            // Per band: one pass over its pixels sets each colour's sixel bits column by
            // column (`bits`, a row of `width` per colour met, in the order met), then each
            // colour's row is written with run-length coding between its first and last column.
            let slotOfColour = UnsafeMutableBufferPointer<Int>.allocate(capacity: 256)
            slotOfColour.initialize(repeating: -1)
            let bits = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256 * width)
            let first = UnsafeMutableBufferPointer<Int>.allocate(capacity: 256)
            let last = UnsafeMutableBufferPointer<Int>.allocate(capacity: 256)
            let colours = UnsafeMutableBufferPointer<Int>.allocate(capacity: 256)
            defer {
                slotOfColour.deallocate()
                bits.deallocate()
                first.deallocate()
                last.deallocate()
                colours.deallocate()
            }
            var bandTop = rows.lowerBound
            while bandTop < rows.upperBound {
                let bandRows = min(6, rows.upperBound - bandTop)
                var met = 0
                for dy in 0..<bandRows {
                    let row = (bandTop + dy) * width
                    let bit = UInt8(1) << UInt8(dy)
                    for x in 0..<width {
                        let colour = Int(indices[row + x])
                        var slot = slotOfColour[colour]
                        if slot < 0 {
                            slot = met
                            met += 1
                            slotOfColour[colour] = slot
                            colours[slot] = colour
                            first[slot] = x
                            last[slot] = x
                            (bits.baseAddress! + slot * width).initialize(repeating: 0, count: width)
                        }
                        bits[slot * width + x] |= bit
                        if x < first[slot] { first[slot] = x }
                        if x > last[slot] { last[slot] = x }
                    }
                }
                for slot in 0..<met {
                    let colour = colours[slot]
                    if slot > 0 { out.append(UInt8(ascii: "$")) }  // back to the band's left edge
                    out.append(UInt8(ascii: "#"))
                    appendDecimal(colour, to: &out)
                    appendRun(byte: 63, count: first[slot], to: &out)
                    var run = 0
                    var runByte: UInt8 = 0
                    let row = slot * width
                    for x in first[slot]...last[slot] {
                        let byte = 63 + bits[row + x]
                        if byte == runByte && run > 0 {
                            run += 1
                        } else {
                            appendRun(byte: runByte, count: run, to: &out)
                            runByte = byte
                            run = 1
                        }
                    }
                    appendRun(byte: runByte, count: run, to: &out)
                }
                for slot in 0..<met { slotOfColour[colours[slot]] = -1 }
                bandTop += bandRows
                if bandTop < rows.upperBound { out.append(UInt8(ascii: "-")) }  // next band
            }
            out += [0x1B, UInt8(ascii: "\\")]
            return out
        }
    }

    private static func appendRun(byte: UInt8, count: Int, to out: inout [UInt8]) {
        guard count > 0 else { return }
        if count > 3 {
            out.append(UInt8(ascii: "!"))
            appendDecimal(count, to: &out)
            out.append(byte)
        } else {
            for _ in 0..<count { out.append(byte) }
        }
    }

    /// `value` (≥ 0) in decimal digits, as string interpolation would write it, without a string.
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// A palette of at most `colors` entries and each pixel's index in it (alpha ignored:
    /// decoded photos are opaque); with `dither`, the indices of ``SixelDither``.
    static func quantize(_ pixels: PixelBuffer, colors: Int, dither: Bool = false) -> (palette: [(r: UInt8, g: UInt8, b: UInt8)], indices: [UInt8]) {
        let count = pixels.width * pixels.height
        var population = [Int32](repeating: 0, count: 1 << 15)
        var sums = [Int64](repeating: 0, count: 3 << 15)
        var bins = [UInt16](repeating: 0, count: count)
        pixels.bytes.withUnsafeBufferPointer { rgba in
            population.withUnsafeMutableBufferPointer { population in
                sums.withUnsafeMutableBufferPointer { sums in
                    bins.withUnsafeMutableBufferPointer { bins in
                        for i in 0..<count {
                            let r = Int(rgba[i &* 4]), g = Int(rgba[i &* 4 &+ 1]), b = Int(rgba[i &* 4 &+ 2])
                            let bin = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
                            bins[i] = UInt16(truncatingIfNeeded: bin)
                            population[bin] &+= 1
                            sums[bin &* 3] &+= Int64(r)
                            sums[bin &* 3 &+ 1] &+= Int64(g)
                            sums[bin &* 3 &+ 2] &+= Int64(b)
                        }
                    }
                }
            }
        }
        let occupied = population.indices.filter { population[$0] > 0 }
        let palette = SixelPalette.make(occupied.map { bin in
            SixelPalette.Bin(population: Int64(population[bin]), r: sums[bin * 3], g: sums[bin * 3 + 1], b: sums[bin * 3 + 2])
        }, colors: colors)
        if dither { return (palette, SixelDither.indices(of: pixels, palette: palette)) }
        // Each occupied bin's mean to its nearest entry (the first of equals); the entries'
        // channels side by side, so the search is a tight loop.
        var entryOfBin = [UInt8](repeating: 0, count: 1 << 15)
        let reds = palette.map { Int32($0.r) }, greens = palette.map { Int32($0.g) }, blues = palette.map { Int32($0.b) }
        reds.withUnsafeBufferPointer { reds in
            greens.withUnsafeBufferPointer { greens in
                blues.withUnsafeBufferPointer { blues in
                    for bin in occupied {
                        let n = Int64(population[bin])
                        let r = Int32((sums[bin * 3] + n / 2) / n), g = Int32((sums[bin * 3 + 1] + n / 2) / n), b = Int32((sums[bin * 3 + 2] + n / 2) / n)
                        var best = 0, bestDistance = Int32.max
                        for k in 0..<reds.count {
                            let dr = r &- reds[k], dg = g &- greens[k], db = b &- blues[k]
                            let distance = 3 &* dr &* dr &+ 4 &* dg &* dg &+ 2 &* db &* db
                            if distance < bestDistance {
                                bestDistance = distance
                                best = k
                                if distance == 0 { break }
                            }
                        }
                        entryOfBin[bin] = UInt8(best)
                    }
                }
            }
        }
        var indices = [UInt8](repeating: 0, count: count)
        entryOfBin.withUnsafeBufferPointer { entryOfBin in
            bins.withUnsafeBufferPointer { bins in
                indices.withUnsafeMutableBufferPointer { indices in
                    for i in 0..<count { indices[i] = entryOfBin[Int(bins[i])] }
                }
            }
        }
        return (palette, indices)
    }
}

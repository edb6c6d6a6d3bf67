/// The 1/8-scale image of a progressive JPEG from its DC scans alone.
///
/// Why it exists (D-053): libjpeg (and so TurboJPEG) keeps every DCT coefficient of a
/// progressive image until its last scan, whatever scale it is asked for — 63 MB for the
/// bundled 4096×2560 `path.jpg` to make a thumbnail of 512×320. At 1/8 scale the inverse
/// DCT of a block is its DC coefficient alone (libjpeg's `jpeg_idct_1x1`), and a progressive
/// file sends the DCs in scans of their own, so this decoder reads those and skips the AC
/// scans unread: one 32-bit value per block (0.6 MB for `path.jpg`) instead of 64 16-bit ones.
/// No library decodes this way, hence the hand-written entropy reader beside it.
///
/// It takes only what it is sure of — 8-bit Huffman progressive frames with one (grey) or
/// three (YCbCr) components — and returns nil for anything else, which the caller decodes
/// with TurboJPEG as before. Grey, 4:4:4 and 4:2:2 come out identical to TurboJPEG's 1/8;
/// 4:2:0 chroma is interpolated linearly where TurboJPEG runs a 2×2 inverse DCT that needs
/// AC coefficients (a difference of a level or two on photos; tested).
enum ProgressiveDCDecoder {
    /// The image at 1/8 scale (`⌈width/8⌉ × ⌈height/8⌉`, as stored: before EXIF orientation),
    /// or nil when `data` is not a progressive JPEG this decoder handles.
    static func decode(_ data: [UInt8]) -> PixelBuffer? {
        try? decodeOrExplain(data)
    }

    /// As ``decode(_:)``, saying why not.
    static func decodeOrExplain(_ data: [UInt8]) throws(JPEGDCFailure) -> PixelBuffer {
        var state = DCState()
        try state.read(data)
        return try state.image()
    }
}

/// One component of the frame and its DC plane.
private struct DCComponent {
    let id: UInt8
    let horizontal: Int
    let vertical: Int
    let quantTable: Int
    /// The DC quantiser, latched at the component's first scan (a later DQT does not apply).
    var quantizer: Int?
    /// Blocks across and down, padded to whole MCUs.
    var blocksWide = 0
    var blocksHigh = 0
    /// Blocks a scan of this component alone codes (not padded).
    var codedWide = 0
    var codedHigh = 0
    var coefficients: [Int32] = []
    var predictor = 0
    var firstScanDone = false
}

private struct DCState {
    var width = 0
    var height = 0
    var components: [DCComponent] = []
    var quantDC = [Int?](repeating: nil, count: 4)
    var dcTables = [JPEGHuffmanTable?](repeating: nil, count: 4)
    var restartInterval = 0
    var adobeTransform: Int?
    var sawJFIF = false
    var mcusWide = 0
    var mcusHigh = 0

    mutating func read(_ data: [UInt8]) throws(JPEGDCFailure) {
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { throw JPEGDCFailure(reason: "not a JPEG") }
        var at = 2
        while at + 1 < data.count {
            guard data[at] == 0xFF else { throw JPEGDCFailure(reason: "marker expected at \(at)") }
            let marker = data[at + 1]
            at += 2
            switch marker {
            case 0xFF: at -= 1; continue                   // fill byte
            case 0xD9: return                               // end of image
            case 0xD0...0xD7, 0x01: continue                // stray restart, TEM: no segment
            default: break
            }
            guard at + 2 <= data.count else { throw JPEGDCFailure(reason: "segment header cut off") }
            let length = Int(data[at]) << 8 | Int(data[at + 1])
            guard length >= 2, at + length <= data.count else { throw JPEGDCFailure(reason: "segment runs past the end") }
            let payload = data[(at + 2)..<(at + length)]
            at += length
            switch marker {
            case 0xC2: try readFrame(payload)
            case 0xC0, 0xC1, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw JPEGDCFailure(reason: "not a Huffman progressive frame")
            case 0xC4: try readHuffmanTables(payload)
            case 0xDB: try readQuantTables(payload)
            case 0xDD:
                guard payload.count >= 2 else { throw JPEGDCFailure(reason: "short DRI") }
                restartInterval = Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1])
            case 0xDC: throw JPEGDCFailure(reason: "height given by DNL")
            case 0xE0: sawJFIF = sawJFIF || payload.starts(with: Array("JFIF".utf8))
            case 0xEE:
                if payload.starts(with: Array("Adobe".utf8)), payload.count >= 12 {
                    adobeTransform = Int(payload[payload.startIndex + 11])
                }
            case 0xDA: at = try readScan(payload, data: data, entropyStart: at)
            default: break                                  // APPn, COM and the like
            }
        }
        // A file cut off after its scans: keep what came, as TurboJPEG does.
    }

    mutating func readFrame(_ payload: ArraySlice<UInt8>) throws(JPEGDCFailure) {
        guard components.isEmpty else { throw JPEGDCFailure(reason: "second frame") }
        let p = Array(payload)
        guard p.count >= 6, p[0] == 8 else { throw JPEGDCFailure(reason: "not 8-bit") }
        height = Int(p[1]) << 8 | Int(p[2])
        width = Int(p[3]) << 8 | Int(p[4])
        let count = Int(p[5])
        guard width > 0, height > 0, count == 1 || count == 3, p.count >= 6 + 3 * count else {
            throw JPEGDCFailure(reason: "frame of \(count) components")
        }
        for index in 0..<count {
            let base = 6 + 3 * index
            let horizontal = Int(p[base + 1] >> 4), vertical = Int(p[base + 1] & 15), table = Int(p[base + 2])
            guard (1...4).contains(horizontal), (1...4).contains(vertical), table < 4 else {
                throw JPEGDCFailure(reason: "sampling factors or table out of range")
            }
            components.append(DCComponent(id: p[base], horizontal: horizontal, vertical: vertical, quantTable: table))
        }
        let maxH = components.map(\.horizontal).max()!, maxV = components.map(\.vertical).max()!
        mcusWide = (width + 8 * maxH - 1) / (8 * maxH)
        mcusHigh = (height + 8 * maxV - 1) / (8 * maxV)
        for index in components.indices {
            let c = components[index]
            components[index].blocksWide = mcusWide * c.horizontal
            components[index].blocksHigh = mcusHigh * c.vertical
            let samplesWide = (width * c.horizontal + maxH - 1) / maxH
            let samplesHigh = (height * c.vertical + maxV - 1) / maxV
            components[index].codedWide = (samplesWide + 7) / 8
            components[index].codedHigh = (samplesHigh + 7) / 8
            components[index].coefficients = [Int32](repeating: 0, count: mcusWide * c.horizontal * mcusHigh * c.vertical)
        }
    }

    mutating func readHuffmanTables(_ payload: ArraySlice<UInt8>) throws(JPEGDCFailure) {
        var at = payload.startIndex
        while at < payload.endIndex {
            guard at + 17 <= payload.endIndex else { throw JPEGDCFailure(reason: "short DHT") }
            let tableClass = payload[at] >> 4, slot = Int(payload[at] & 15)
            let counts = payload[(at + 1)..<(at + 17)]
            let total = counts.reduce(0) { $0 + Int($1) }
            guard slot < 4, total <= 256, at + 17 + total <= payload.endIndex else { throw JPEGDCFailure(reason: "bad DHT") }
            if tableClass == 0 {
                dcTables[slot] = try JPEGHuffmanTable(counts: counts, values: payload[(at + 17)..<(at + 17 + total)])
            }
            at += 17 + total
        }
    }

    mutating func readQuantTables(_ payload: ArraySlice<UInt8>) throws(JPEGDCFailure) {
        var at = payload.startIndex
        while at < payload.endIndex {
            let wide = payload[at] >> 4, slot = Int(payload[at] & 15)
            let size = wide == 0 ? 64 : 128
            guard wide <= 1, slot < 4, at + 1 + size <= payload.endIndex else { throw JPEGDCFailure(reason: "bad DQT") }
            // The first entry (zig-zag order) is the DC quantiser.
            quantDC[slot] = wide == 0 ? Int(payload[at + 1]) : Int(payload[at + 1]) << 8 | Int(payload[at + 2])
            at += 1 + size
        }
    }

    /// Decodes a DC scan, or skips an AC scan unread; returns where the next marker starts.
    mutating func readScan(_ payload: ArraySlice<UInt8>, data: [UInt8], entropyStart: Int) throws(JPEGDCFailure) -> Int {
        let p = Array(payload)
        guard !components.isEmpty else { throw JPEGDCFailure(reason: "scan before frame") }
        guard let count = p.first.map(Int.init), (1...4).contains(count), p.count == 4 + 2 * count else {
            throw JPEGDCFailure(reason: "bad SOS")
        }
        let spectralStart = p[1 + 2 * count], spectralEnd = p[2 + 2 * count]
        let high = Int(p[3 + 2 * count] >> 4), low = Int(p[3 + 2 * count] & 15)
        guard spectralStart == 0 else {
            return JPEGEntropyReader.nextMarker(in: data, from: entropyStart)   // AC: not needed at 1/8
        }
        guard spectralEnd == 0, low <= 13 else { throw JPEGDCFailure(reason: "not a progressive DC scan") }
        var members: [(component: Int, table: Int)] = []
        for index in 0..<count {
            let id = p[1 + 2 * index], table = Int(p[2 + 2 * index] >> 4)
            guard let component = components.firstIndex(where: { $0.id == id }), table < 4,
                  !members.contains(where: { $0.component == component }) else {
                throw JPEGDCFailure(reason: "scan names an unknown component")
            }
            if high == 0 {
                guard dcTables[table] != nil else { throw JPEGDCFailure(reason: "DC table \(table) not defined") }
            } else {
                guard components[component].firstScanDone else { throw JPEGDCFailure(reason: "refinement before first scan") }
            }
            if components[component].quantizer == nil {
                guard let q = quantDC[components[component].quantTable] else { throw JPEGDCFailure(reason: "quantiser not defined") }
                components[component].quantizer = q
            }
            members.append((component, table))
        }
        var reader = JPEGEntropyReader(data: data, position: entropyStart)
        try decodeDC(members, successiveHigh: high, successiveLow: low, reader: &reader)
        if high == 0 { for member in members { components[member.component].firstScanDone = true } }
        return reader.nextMarker()
    }

    private mutating func decodeDC(_ members: [(component: Int, table: Int)], successiveHigh: Int, successiveLow: Int,
                                   reader: inout JPEGEntropyReader) throws(JPEGDCFailure) {
        for member in members { components[member.component].predictor = 0 }
        let tables = members.map { dcTables[$0.table] }
        var unitsInInterval = 0
        let totalUnits: Int
        if members.count == 1 {
            let c = components[members[0].component]
            totalUnits = c.codedWide * c.codedHigh
        } else {
            totalUnits = mcusWide * mcusHigh
        }
        var unit = 0
        while unit < totalUnits {
            if restartInterval > 0, unitsInInterval == restartInterval {
                try reader.restart()
                unitsInInterval = 0
                for member in members { components[member.component].predictor = 0 }
            }
            if members.count == 1 {
                let index = members[0].component
                let wide = components[index].codedWide
                let block = (unit / wide) * components[index].blocksWide + unit % wide
                try decodeBlock(index, block: block, table: tables[0], high: successiveHigh, low: successiveLow, reader: &reader)
            } else {
                let mcuX = unit % mcusWide, mcuY = unit / mcusWide
                for (slot, member) in members.enumerated() {
                    // Scalars only: a copy of the component would share its coefficients, and
                    // every write below would then copy the whole array (a quadratic decode).
                    let vertical = components[member.component].vertical, horizontal = components[member.component].horizontal
                    let blocksWide = components[member.component].blocksWide
                    for v in 0..<vertical {
                        for h in 0..<horizontal {
                            let block = (mcuY * vertical + v) * blocksWide + mcuX * horizontal + h
                            try decodeBlock(member.component, block: block, table: tables[slot],
                                            high: successiveHigh, low: successiveLow, reader: &reader)
                        }
                    }
                }
            }
            unit += 1
            unitsInInterval += 1
        }
    }

    private mutating func decodeBlock(_ index: Int, block: Int, table: JPEGHuffmanTable?, high: Int, low: Int,
                                      reader: inout JPEGEntropyReader) throws(JPEGDCFailure) {
        if high == 0 {
            guard let table else { throw JPEGDCFailure(reason: "no DC table") }
            let size = try table.decode(&reader)
            guard size <= 15 else { throw JPEGDCFailure(reason: "DC difference of \(size) bits") }
            components[index].predictor += reader.signedValue(size: size)
            components[index].coefficients[block] = Int32(truncatingIfNeeded: components[index].predictor << low)
        } else if reader.bit() == 1 {
            components[index].coefficients[block] |= Int32(1) << Int32(low)
        }
    }

    /// The RGBA image at 1/8 scale.
    func image() throws(JPEGDCFailure) -> PixelBuffer {
        guard !components.isEmpty, components.allSatisfy(\.firstScanDone) else {
            throw JPEGDCFailure(reason: "a component has no DC scan")
        }
        if components.count == 3 {
            // Adobe's transform 0 means RGB, and so do component ids R, G, B without JFIF or Adobe (libjpeg's rule).
            if adobeTransform == 0 { throw JPEGDCFailure(reason: "RGB, not YCbCr") }
            if !sawJFIF, adobeTransform == nil, components.map(\.id) == [0x52, 0x47, 0x42] {
                throw JPEGDCFailure(reason: "RGB, not YCbCr")
            }
        }
        let outWide = (width + 7) / 8, outHigh = (height + 7) / 8
        let maxH = components.map(\.horizontal).max()!, maxV = components.map(\.vertical).max()!
        // Each component at the output's size: 1×1 inverse DCT (level shift, clamp), then
        // brought to the luma's size (`resample`).
        let planes: [[UInt8]] = components.map { c in
            let q = c.quantizer ?? 1
            var samples = [UInt8](repeating: 0, count: c.codedWide * c.codedHigh)
            for y in 0..<c.codedHigh {
                for x in 0..<c.codedWide {
                    samples[y * c.codedWide + x] = UInt8(clamping: ((Int(c.coefficients[y * c.blocksWide + x]) * q + 4) >> 3) + 128)
                }
            }
            return Self.resample(samples, wide: c.codedWide, high: c.codedHigh, factors: (c.horizontal, c.vertical),
                                 of: (maxH, maxV), to: (outWide, outHigh))
        }
        var pixels = [UInt8](repeating: 255, count: outWide * outHigh * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            for i in 0..<(outWide * outHigh) {
                let o = i * 4, luma = Int(planes[0][i])
                guard planes.count == 3 else {
                    out[o] = UInt8(luma); out[o + 1] = UInt8(luma); out[o + 2] = UInt8(luma)
                    continue
                }
                let cb = Int(planes[1][i]) - 128, cr = Int(planes[2][i]) - 128
                // libjpeg's YCbCr → RGB in 16-bit fixed point (jdcolor.c).
                out[o] = UInt8(clamping: luma + ((91_881 * cr + 32_768) >> 16))
                out[o + 1] = UInt8(clamping: luma + ((-22_554 * cb - 46_802 * cr + 32_768) >> 16))
                out[o + 2] = UInt8(clamping: luma + ((116_130 * cb + 32_768) >> 16))
            }
        }
        return PixelBuffer(width: outWide, height: outHigh, bytes: pixels)
    }

    /// A plane of `wide × high` samples taken at `factors` of the frame's largest `of`, at
    /// `to`'s size. Chroma halved both ways (4:2:0): each output pixel's centre mapped into
    /// the plane and the two nearest samples mixed in each direction (3/4 and 1/4), closest
    /// to what TurboJPEG's 2×2 inverse DCT makes without the AC coefficients it uses.
    static func resample(_ plane: [UInt8], wide: Int, high: Int, factors: (Int, Int), of largest: (Int, Int),
                         to size: (Int, Int)) -> [UInt8] {
        func taps(_ count: Int, factor: Int, largest: Int, limit: Int) -> [(Int, Int, Int)] {
            (0..<count).map { x in
                // Centre of output pixel x in plane units, times 2·largest: (2x+1)·factor − largest.
                let scaled = (2 * x + 1) * factor - largest, unit = 2 * largest
                let lower = scaled >= 0 ? scaled / unit : -1
                let fraction = scaled - lower * unit
                return (min(max(lower, 0), limit - 1), min(max(lower + 1, 0), limit - 1), fraction)
            }
        }
        // TurboJPEG at 1/8 interpolates (by a 2×2 inverse DCT) only chroma halved both ways;
        // any other plane it repeats, and so does this.
        if largest.0 < 2 * factors.0 || largest.1 < 2 * factors.1 {
            if factors == largest, wide == size.0, high == size.1 { return plane }
            return (0..<(size.0 * size.1)).map { i in
                let x = min(i % size.0 * factors.0 / largest.0, wide - 1), y = min(i / size.0 * factors.1 / largest.1, high - 1)
                return plane[y * wide + x]
            }
        }
        let across = taps(size.0, factor: factors.0, largest: largest.0, limit: wide)
        let down = taps(size.1, factor: factors.1, largest: largest.1, limit: high)
        let unitX = 2 * largest.0, unitY = 2 * largest.1
        var out = [UInt8](repeating: 0, count: size.0 * size.1)
        for (y, (top, bottom, fy)) in down.enumerated() {
            for (x, (left, right, fx)) in across.enumerated() {
                let upper = Int(plane[top * wide + left]) * (unitX - fx) + Int(plane[top * wide + right]) * fx
                let lower = Int(plane[bottom * wide + left]) * (unitX - fx) + Int(plane[bottom * wide + right]) * fx
                let total = upper * (unitY - fy) + lower * fy
                out[y * size.0 + x] = UInt8(clamping: (total + unitX * unitY / 2) / (unitX * unitY))
            }
        }
        return out
    }
}

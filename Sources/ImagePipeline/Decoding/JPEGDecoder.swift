import CTurboJPEG

/// Decodes JPEG with libturbojpeg; the only file that imports it.
///
/// One decoder per worker thread: a TurboJPEG handle must not be shared (IMAGES.md, trap 10).
public final class JPEGDecoder {
    private let handle: tjhandle
    /// Whether a progressive image wanted at 1/8 is read from its DC scans alone, without
    /// libjpeg's whole-image coefficient buffer (D-053); off, TurboJPEG decodes every image.
    /// The tests and `destinations-bench images` turn it off to compare the two.
    public var readsDCScansAlone = true

    /// A decoder with its own TurboJPEG handle (traps only when out of memory).
    public init() {
        guard let handle = tjInitDecompress() else { fatalError("tjInitDecompress failed: out of memory") }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// Width and height from the header alone (as stored: before EXIF orientation).
    public func headerSize(_ data: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
        }
        return status == 0 && width > 0 && height > 0 ? (Int(width), Int(height)) : nil
    }

    /// What ``decode(_:path:covering:)`` may allocate for `data`, from its header alone: the
    /// scaled RGBA, and for a progressive image libjpeg's whole-image coefficient buffer (2
    /// bytes a sample, as many samples as its subsampling keeps). Counted at 1/8 too: the
    /// DC-scan reader gives some progressive files back to TurboJPEG (restart markers, a
    /// second frame…). Nil for a header it cannot read (the decode says why).
    public func plannedBytes(_ data: [UInt8], covering minimum: (width: Int, height: Int)?) -> (bytes: Int, width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0, !ImageLimits.exceeded(width: Int(width), height: Int(height)) else { return nil }
        var target = minimum
        if ExifOrientation(jpeg: data).swapsAxes, let wanted = target { target = (wanted.height, wanted.width) }
        let factor = Self.scalingFactor(width: Int(width), height: Int(height), covering: target)
        let scaled = Int(ctj_scaled(width, factor)) * Int(ctj_scaled(height, factor)) * 4
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        // SOF2, SOF6, SOF10, SOF14: progressive, Huffman or arithmetic coded.
        let progressive = JPEGSegments(data).contains { [0xC2, 0xC6, 0xCA, 0xCE].contains($0.marker) }
        // Samples a pixel: 4:4:4 3, 4:2:2 and 4:4:0 2, 4:2:0 and 4:1:1 1.5, grey 1, CMYK 4.
        let halfSamples: Int = switch Int(subsampling) {
        case _ where isCMYK: 8
        case Int(TJSAMP_444.rawValue): 6
        case Int(TJSAMP_422.rawValue), Int(TJSAMP_440.rawValue): 4
        case Int(TJSAMP_GRAY.rawValue): 2
        default: 3
        }
        let coefficients = progressive ? Int(width) * Int(height) * halfSamples : 0  // 2 bytes × halfSamples / 2
        return (scaled + coefficients, Int(width), Int(height))
    }

    /// Decodes to RGBA at the smallest DCT scale whose output still covers `minimum`
    /// pixels (after EXIF orientation), or at full size when `minimum` is nil. This is the
    /// terminal's `prepareThumbnail`: a 40×12-cell thumbnail of a 2560×1600 photo decodes
    /// 1/8 of the pixels in each direction.
    public func decode(_ data: [UInt8], path: String, covering minimum: (width: Int, height: Int)?) throws(ImageError) -> PixelBuffer {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let headerStatus = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
        }
        guard headerStatus == 0, width > 0, height > 0 else { throw .corrupt(path: path, reason: errorText()) }
        guard !ImageLimits.exceeded(width: Int(width), height: Int(height)) else {
            throw .tooLarge(path: path, width: Int(width), height: Int(height))
        }
        let orientation = ExifOrientation(jpeg: data)
        var target = minimum
        if orientation.swapsAxes, let wanted = target { target = (wanted.height, wanted.width) }
        let factor = Self.scalingFactor(width: Int(width), height: Int(height), covering: target)
        let scaledWidth = Int(ctj_scaled(width, factor)), scaledHeight = Int(ctj_scaled(height, factor))
        // What one decode may produce (a 100-megapixel photo decodes at a smaller scale, or not).
        guard scaledWidth * scaledHeight <= ImageLimits.maximumDecodedPixels else {
            throw .tooLarge(path: path, width: Int(width), height: Int(height))
        }

        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        // At 1/8 a progressive image needs only its DC scans: no whole-image coefficient
        // buffer (D-053). Anything that decoder does not take goes to TurboJPEG.
        if readsDCScansAlone, factor.num == 1, factor.denom == 8, !isCMYK, let image = ProgressiveDCDecoder.decode(data) {
            return orientation.apply(to: image)
        }
        var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 4)
        let format = isCMYK ? TJPF_CMYK : TJPF_RGBA
        let status = data.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                tjDecompress2(handle, source.baseAddress, UInt(data.count), destination.baseAddress,
                              Int32(scaledWidth), 0, Int32(scaledHeight), Int32(format.rawValue), 0)
            }
        }
        // -1 also reports warnings (a truncated file decodes partly): keep what we got.
        if status != 0 && tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            throw .corrupt(path: path, reason: errorText())
        }
        if isCMYK { Self.convertCMYKToRGBA(&pixels, inverted: Self.hasAdobeMarker(data)) }
        return orientation.apply(to: PixelBuffer(width: scaledWidth, height: scaledHeight, bytes: pixels))
    }

    /// The smallest factor of at most 1 whose output is at least `minimum` in both
    /// directions (1 when none is, or when no minimum is given). `tjDecompress2` cannot be
    /// asked this directly: given a size, it picks the largest scale that fits *inside* it.
    static func scalingFactor(width: Int, height: Int, covering minimum: (width: Int, height: Int)?) -> tjscalingfactor {
        var count: Int32 = 0
        guard let minimum, let factors = tjGetScalingFactors(&count) else { return tjscalingfactor(num: 1, denom: 1) }
        var best = tjscalingfactor(num: 1, denom: 1)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            let w = Int(ctj_scaled(Int32(width), factor)), h = Int(ctj_scaled(Int32(height), factor))
            let bestWidth = Int(ctj_scaled(Int32(width), best))
            if w >= minimum.width && h >= minimum.height && w < bestWidth { best = factor }
        }
        return best
    }

    private func errorText() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }

    /// Photoshop writes CMYK inverted and says so in an APP14 "Adobe" segment.
    static func hasAdobeMarker(_ data: [UInt8]) -> Bool {
        JPEGSegments(data).contains { $0.marker == 0xEE && $0.payload.starts(with: Array("Adobe".utf8)) }
    }

    static func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                var c = Int(p[i]), m = Int(p[i + 1]), y = Int(p[i + 2]), k = Int(p[i + 3])
                if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                p[i] = UInt8(c * k / 255)
                p[i + 1] = UInt8(m * k / 255)
                p[i + 2] = UInt8(y * k / 255)
                p[i + 3] = 255
            }
        }
    }
}

/// The marker segments of a JPEG before its image data, bounds-checked.
struct JPEGSegments: Sequence {
    struct Segment {
        let marker: UInt8
        let payload: ArraySlice<UInt8>
    }

    let data: [UInt8]

    init(_ data: [UInt8]) { self.data = data }

    func makeIterator() -> AnyIterator<Segment> {
        var offset = 2
        return AnyIterator {
            while offset + 4 <= data.count, data[offset] == 0xFF {
                let marker = data[offset + 1]
                if marker == 0xFF { offset += 1; continue }
                if marker == 0xDA || marker == 0xD9 { return nil }  // image data or end: no more headers
                let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
                guard length >= 2, offset + 2 + length <= data.count else { return nil }
                let payload = data[(offset + 4)..<(offset + 2 + length)]
                offset += 2 + length
                return Segment(marker: marker, payload: payload)
            }
            return nil
        }
    }
}

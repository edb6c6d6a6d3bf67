import CImageFormats

/// WebP through libwebp, at the size the cells need: libwebp scales while it decodes, so a
/// large WebP costs what its thumbnail does (as a JPEG's DCT scaling does). Animated WebPs
/// show their first frame.
enum WebPCodec {
    /// The canvas size, read from the header without decoding; nil when libwebp cannot read it.
    static func headerSize(_ data: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0, animated: Int32 = 0
        let status = data.withUnsafeBufferPointer { cif_webp_info($0.baseAddress, $0.count, &width, &height, &animated) }
        return status == 0 && width > 0 && height > 0 ? (Int(width), Int(height)) : nil
    }

    /// The size a decode covering `minimum` makes: the canvas scaled down (aspect kept) as
    /// far as still covers it, and never above ``ImageLimits/maximumDecodedPixels``.
    static func decodedSize(canvas: (width: Int, height: Int), covering minimum: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        var scale = 1.0
        if let minimum, minimum.width > 0, minimum.height > 0 {
            scale = min(1, max(Double(minimum.width) / Double(canvas.width), Double(minimum.height) / Double(canvas.height)))
        }
        let pixels = Double(canvas.width) * Double(canvas.height) * scale * scale
        if pixels > Double(ImageLimits.maximumDecodedPixels) { scale *= (Double(ImageLimits.maximumDecodedPixels) / pixels).squareRoot() }
        return (max(1, Int((Double(canvas.width) * scale).rounded(.up))), max(1, Int((Double(canvas.height) * scale).rounded(.up))))
    }

    static func decode(_ data: [UInt8], path: String, covering minimum: (width: Int, height: Int)?) throws(ImageError) -> PixelBuffer {
        guard let canvas = headerSize(data) else { throw .corrupt(path: path, reason: "libwebp cannot read it") }
        // WebP's own limit is 16383 a side: a canvas claiming more is not a WebP.
        guard !ImageLimits.exceeded(width: canvas.width, height: canvas.height), canvas.width <= 16383, canvas.height <= 16383 else {
            throw .tooLarge(path: path, width: canvas.width, height: canvas.height)
        }
        let size = decodedSize(canvas: canvas, covering: minimum)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let status = data.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { cif_webp_decode(input.baseAddress, input.count, Int32(size.width), Int32(size.height), $0.baseAddress) }
        }
        guard status == 0 else { throw .corrupt(path: path, reason: "libwebp could not decode it") }
        return PixelBuffer(width: size.width, height: size.height, bytes: pixels)
    }
}

/// GIF through giflib: the first image, drawn on the logical screen (transparent pixels
/// white, as a page behind it would be). GIF has no smaller decode: like a PNG, a screen
/// over ``ImageLimits/maximumDecodedPixels`` is refused from its header.
enum GIFCodec {
    /// The logical screen's size, from the header; nil when giflib cannot open it.
    static func headerSize(_ data: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0
        let status = data.withUnsafeBufferPointer { cif_gif_info($0.baseAddress, $0.count, &width, &height) }
        return status == 0 && width > 0 && height > 0 ? (Int(width), Int(height)) : nil
    }

    static func decode(_ data: [UInt8], path: String) throws(ImageError) -> PixelBuffer {
        guard let screen = headerSize(data) else { throw .corrupt(path: path, reason: "giflib cannot read it") }
        guard !ImageLimits.exceeded(width: screen.width, height: screen.height), screen.width * screen.height <= ImageLimits.maximumDecodedPixels else {
            throw .tooLarge(path: path, width: screen.width, height: screen.height)
        }
        var pixels = [UInt8](repeating: 255, count: screen.width * screen.height * 4)
        let status = data.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { cif_gif_decode_first(input.baseAddress, input.count, Int32(screen.width), Int32(screen.height), $0.baseAddress) }
        }
        guard status == 0 else { throw .corrupt(path: path, reason: status > 0 ? "giflib error \(status)" : "no image in it, or a frame outside its screen") }
        return PixelBuffer(width: screen.width, height: screen.height, bytes: pixels)
    }
}

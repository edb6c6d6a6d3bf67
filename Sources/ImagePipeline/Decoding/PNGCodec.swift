import CPNG

/// Reads (and, for benchmarks and fixtures, writes) PNG with libpng's simplified API;
/// the only file that imports it.
public enum PNGCodec {
    /// Full-size RGBA (PNG has no reduced-resolution decode). The header's size is checked
    /// against ``ImageLimits/maximumPixels`` before the pixel buffer exists (libpng lets a
    /// 60000×60000 header through, IMAGES.md trap 7); RGBA output avoids compositing onto
    /// uninitialised memory.
    public static func decode(_ data: [UInt8], path: String) throws(ImageError) -> PixelBuffer {
        // PNG has no smaller decode: what one decode may produce bounds the whole picture.
        if let (width, height) = headerSize(data), ImageLimits.exceeded(width: width, height: height) || width * height > ImageLimits.maximumDecodedPixels {
            throw .tooLarge(path: path, width: width, height: height)
        }
        var image = png_image()
        cpng_image_init(&image)
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw .corrupt(path: path, reason: reason)
        }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, !ImageLimits.exceeded(width: width, height: height), width * height <= ImageLimits.maximumDecodedPixels else {
            png_image_free(&image)
            throw .tooLarge(path: path, width: width, height: height)
        }
        image.format = cpng_format_rgba()
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw .corrupt(path: path, reason: reason)
        }
        return PixelBuffer(width: width, height: height, bytes: pixels)
    }

    /// `image` as the bytes of an RGBA PNG file; with `fast`, libpng favours speed over
    /// size (its `PNG_IMAGE_FLAG_FAST`: for images made to be sent at once, as kitty's).
    /// `opaque`: written as RGB (colour type 2), the alpha dropped: a quarter fewer bytes
    /// to compress for a photo.
    public static func encode(_ image: PixelBuffer, fast: Bool = false, opaque: Bool = false) throws(ImageError) -> [UInt8] {
        let pixels = opaque ? rgb(of: image) : image.bytes
        var png = png_image()
        cpng_image_init(&png)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = opaque ? cpng_format_rgb() : cpng_format_rgba()
        if fast { png.flags |= cpng_flag_fast() }
        // One pass into a buffer that holds any outcome (rows as stored, uncompressed,
        // plus a generous allowance for zlib's and PNG's framing): measuring first
        // compressed every image twice, a third of a kitty fling's CPU in zlib.
        var size = (image.width * (opaque ? 3 : 4) + 1) * image.height
        size += size / 8 + 4096
        var bytes = [UInt8](repeating: 0, count: size)
        var written = bytes.withUnsafeMutableBytes { output in
            pixels.withUnsafeBytes { png_image_write_to_memory(&png, output.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        if written == 0 && size > bytes.count {
            // Too small after all: libpng said how much it needs.
            png.warning_or_error = 0
            bytes = [UInt8](repeating: 0, count: size)
            written = bytes.withUnsafeMutableBytes { output in
                pixels.withUnsafeBytes { png_image_write_to_memory(&png, output.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
            }
        }
        guard written != 0 else {
            let reason = message(of: png)
            png_image_free(&png)
            throw .unreadable(path: "(memory)", reason: "cannot encode PNG: \(reason)")
        }
        return Array(bytes.prefix(size))
    }

    /// Writes `image` as an RGBA PNG file.
    public static func write(_ image: PixelBuffer, to path: String) throws(ImageError) {
        var png = png_image()
        cpng_image_init(&png)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = cpng_format_rgba()
        let written = image.bytes.withUnsafeBytes { png_image_write_to_file(&png, path, 0, $0.baseAddress, 0, nil) }
        guard written != 0 else {
            let reason = message(of: png)
            png_image_free(&png)
            throw .unreadable(path: path, reason: "cannot write PNG: \(reason)")
        }
    }

    /// Width and height from the IHDR chunk, which must come first: read before libpng is
    /// involved, so a bomb is refused on its first 24 bytes.
    static func headerSize(_ data: [UInt8]) -> (Int, Int)? {
        guard data.count >= 24, data[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func u32(_ at: Int) -> Int { data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    /// The RGB bytes of an RGBA image (its alpha dropped).
    public static func rgb(of image: PixelBuffer) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.bytes.withUnsafeBufferPointer { source in
            for pixel in 0..<(image.width * image.height) {
                rgb[pixel * 3] = source[pixel * 4]
                rgb[pixel * 3 + 1] = source[pixel * 4 + 1]
                rgb[pixel * 3 + 2] = source[pixel * 4 + 2]
            }
        }
        return rgb
    }

    /// `bytes` through zlib's deflate at `level` (1 fastest … 9 smallest): kitty's `o=z`.
    public static func deflate(_ bytes: [UInt8], level: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 1000 + 64)
        let written = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { cpng_deflate($0.baseAddress, UInt($0.count), out.baseAddress, UInt(out.count), Int32(level)) }
        }
        return Array(output.prefix(Int(written)))
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Decoded pixels, always RGBA8 with rows of `width * 4` bytes.
///
/// RGBA on purpose: chafa 1.12.4 garbles RGB input whose row stride is not a multiple of
/// 4 (IMAGES.md, trap 1), and RGBA rows always are.
public struct PixelBuffer: Sendable, Equatable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// RGBA, row by row, `width * height * 4` bytes.
    public var bytes: [UInt8]

    /// Pixels of `width` × `height` from `bytes` (RGBA, `width * height * 4` of them).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "PixelBuffer: \(bytes.count) bytes for \(width)×\(height) RGBA")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Every pixel's alpha is 255 (a decoded photo): it may be written without alpha.
    /// - Complexity: O(pixels).
    public var isOpaque: Bool {
        bytes.withUnsafeBufferPointer { pixels in
            stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
        }
    }

    /// The pixel at (x, y) as (r, g, b, a).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }

    /// The pixels inside `window` (fractions of width and height), at least 1×1.
    /// - Complexity: O(pixels of the result).
    public func cropped(to window: CropWindow) -> PixelBuffer {
        guard window != .whole else { return self }
        let x0 = min(Int(window.x * Double(width)), width - 1)
        let y0 = min(Int(window.y * Double(height)), height - 1)
        let w = max(1, min(Int((window.width * Double(width)).rounded()), width - x0))
        let h = max(1, min(Int((window.height * Double(height)).rounded()), height - y0))
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for row in 0..<h {
            let source = ((y0 + row) * width + x0) * 4
            out.withUnsafeMutableBufferPointer { destination in
                bytes.withUnsafeBufferPointer { origin in
                    for k in 0..<(w * 4) { destination[row * w * 4 + k] = origin[source + k] }
                }
            }
        }
        return PixelBuffer(width: w, height: h, bytes: out)
    }
}

/// A rectangle of a photo in fractions of its size: each post shows its own window, so
/// a million posts over two dozen photos are a million distinct images to prepare.
public struct CropWindow: Sendable, Hashable, CustomStringConvertible {
    /// The left edge, as a fraction of the width.
    public let x: Double
    /// The top edge, as a fraction of the height.
    public let y: Double
    /// The width, as a fraction of the photo's.
    public let width: Double
    /// The height, as a fraction of the photo's.
    public let height: Double

    /// The whole photo.
    public static let whole = CropWindow(x: 0, y: 0, width: 1, height: 1)

    /// The window at `x`, `y` of `width` × `height`, all fractions of the photo's size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        precondition(width > 0 && height > 0 && x >= 0 && y >= 0 && x + width <= 1.000001 && y + height <= 1.000001,
                     "CropWindow must lie inside the unit square, got x \(x) y \(y) w \(width) h \(height)")
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "crop(\(x), \(y), \(width)×\(height))" }
}

extension PixelBuffer {
    /// The image shrunk to fit in `box` × `box` pixels, aspect kept, each output pixel the
    /// average of the source pixels it covers; itself when it already fits (never enlarged).
    /// - Complexity: O(source pixels).
    public func scaledToFit(box: Int) -> PixelBuffer {
        guard width > box || height > box else { return self }
        let scale = Double(box) / Double(max(width, height))
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        return averaged(x: 0, y: 0, width: width, height: height, to: w, h)
    }

    /// Exactly `width` × `height` pixels showing as much of the image as that shape
    /// allows: the middle cut to the target's aspect, then each output pixel the average of
    /// the source pixels it covers (or the nearest one, when enlarging).
    /// - Complexity: O(source pixels + output pixels).
    public func filling(width targetWidth: Int, height targetHeight: Int) -> PixelBuffer {
        precondition(targetWidth > 0 && targetHeight > 0, "filling: \(targetWidth)×\(targetHeight)")
        // The largest centred window with the target's aspect.
        var w = width, h = height
        if w * targetHeight > h * targetWidth { w = max(1, h * targetWidth / targetHeight) } else { h = max(1, w * targetHeight / targetWidth) }
        return averaged(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h, to: targetWidth, targetHeight)
    }

    /// The `w` × `h` window at (`x`, `y`) resampled to `outWidth` × `outHeight`: each
    /// output pixel the average of the source pixels it covers (at least one).
    private func averaged(x x0: Int, y y0: Int, width w: Int, height h: Int, to outWidth: Int, _ outHeight: Int) -> PixelBuffer {
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        bytes.withUnsafeBufferPointer { source in
            for y in 0..<outHeight {
                let sy0 = y0 + y * h / outHeight, sy1 = max(sy0 + 1, y0 + (y + 1) * h / outHeight)
                for x in 0..<outWidth {
                    let sx0 = x0 + x * w / outWidth, sx1 = max(sx0 + 1, x0 + (x + 1) * w / outWidth)
                    var sum = (0, 0, 0, 0)
                    for sy in sy0..<sy1 {
                        var i = (sy * width + sx0) * 4
                        for _ in sx0..<sx1 {
                            sum.0 += Int(source[i]); sum.1 += Int(source[i + 1]); sum.2 += Int(source[i + 2]); sum.3 += Int(source[i + 3])
                            i += 4
                        }
                    }
                    let count = (sy1 - sy0) * (sx1 - sx0), o = (y * outWidth + x) * 4
                    out[o] = UInt8(sum.0 / count); out[o + 1] = UInt8(sum.1 / count)
                    out[o + 2] = UInt8(sum.2 / count); out[o + 3] = UInt8(sum.3 / count)
                }
            }
        }
        return PixelBuffer(width: outWidth, height: outHeight, bytes: out)
    }
}

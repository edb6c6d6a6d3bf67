/// EXIF orientation (tag 0x0112): how a camera says its pixels must be turned.
/// TurboJPEG ignores it (IMAGES.md, trap 5), so the small decoded buffer is turned here.
public struct ExifOrientation: Sendable, Hashable {
    /// 1 (as stored) to 8; anything unreadable counts as 1.
    public let value: Int

    /// The orientation tag's `value`; anything outside 1…8 is 1.
    public init(_ value: Int) { self.value = (1...8).contains(value) ? value : 1 }

    /// Reads the APP1 Exif segment of a JPEG; 1 when there is none or it is malformed.
    public init(jpeg data: [UInt8]) {
        guard let tiff = ExifTIFF(jpeg: data), let directory = tiff.firstDirectory else { self.init(1); return }
        self.init(tiff.value(of: 0x0112, inDirectory: directory) ?? 1)
    }

    /// Orientations 5–8 turn the image a quarter: width and height trade places.
    public var swapsAxes: Bool { value >= 5 }

    /// The buffer as it should be seen.
    /// - Complexity: O(pixels).
    public func apply(to image: PixelBuffer) -> PixelBuffer {
        guard value != 1 else { return image }
        let w = image.width, h = image.height
        let outWidth = swapsAxes ? h : w, outHeight = swapsAxes ? w : h
        var out = [UInt8](repeating: 0, count: image.bytes.count)
        image.bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = source(x: x, y: y, width: w, height: h)
                        let from = (sy * w + sx) * 4, to = (y * outWidth + x) * 4
                        dst[to] = src[from]; dst[to + 1] = src[from + 1]; dst[to + 2] = src[from + 2]; dst[to + 3] = src[from + 3]
                    }
                }
            }
        }
        return PixelBuffer(width: outWidth, height: outHeight, bytes: out)
    }

    /// Where output pixel (x, y) comes from in the stored image of size w × h.
    private func source(x: Int, y: Int, width w: Int, height h: Int) -> (Int, Int) {
        switch value {
        case 2: (w - 1 - x, y)
        case 3: (w - 1 - x, h - 1 - y)
        case 4: (x, h - 1 - y)
        case 5: (y, x)
        case 6: (y, h - 1 - x)
        case 7: (w - 1 - y, h - 1 - x)
        case 8: (w - 1 - y, x)
        default: (x, y)
        }
    }
}

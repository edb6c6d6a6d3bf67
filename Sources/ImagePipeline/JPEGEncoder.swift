import CTurboJPEG

/// Encodes RGBA pixels as JPEG with libturbojpeg (`destinations-feed` makes its preview
/// images with it). One encoder per thread: a TurboJPEG handle must not be shared.
public final class JPEGEncoder {
    private let handle: tjhandle

    /// An encoder with its own TurboJPEG handle (traps only when out of memory).
    public init() {
        guard let handle = tjInitCompress() else { fatalError("tjInitCompress failed: out of memory") }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// `image` as a baseline JPEG at `quality` (1...100), 4:2:0.
    public func encode(_ image: PixelBuffer, quality: Int = 80) throws(ImageError) -> [UInt8] {
        precondition((1...100).contains(quality), "JPEGEncoder: quality \(quality) is not 1...100")
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.bytes.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown TurboJPEG error"
            throw .corrupt(path: "(encoding)", reason: reason)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}

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

    /// How the chroma of an encoded JPEG is subsampled (or none: grey).
    public enum Subsampling: Sendable {
        /// Chroma at full resolution.
        case s444
        /// Chroma halved across.
        case s422
        /// Chroma halved across and down: what cameras and the web use.
        case s420
        /// One component, no chroma.
        case grey
        var turbo: Int32 {
            switch self {
            case .s444: Int32(TJSAMP_444.rawValue)
            case .s422: Int32(TJSAMP_422.rawValue)
            case .s420: Int32(TJSAMP_420.rawValue)
            case .grey: Int32(TJSAMP_GRAY.rawValue)
            }
        }
    }

    /// `image` as a JPEG at `quality` (1...100): baseline 4:2:0 unless asked otherwise
    /// (progressive files are what the tests of the DC-scan decoder are made of, D-053).
    public func encode(_ image: PixelBuffer, quality: Int = 80, subsampling: Subsampling = .s420,
                       progressive: Bool = false) throws(ImageError) -> [UInt8] {
        precondition((1...100).contains(quality), "JPEGEncoder: quality \(quality) is not 1...100")
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let flags = progressive ? Int32(TJFLAG_PROGRESSIVE) : 0
        let status = image.bytes.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, subsampling.turbo, Int32(quality), flags)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown TurboJPEG error"
            throw .corrupt(path: "(encoding)", reason: reason)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}

import ImagePipeline
import FuzzSupport

/// libFuzzer target: arbitrary bytes as a JPEG's head, through the EXIF parsers
/// (APP1 segments, TIFF headers in both byte orders, IFD entries; the orientation and the
/// embedded thumbnail's bounds), then the orientation applied to a small image. `make fuzz` builds it; a normal build makes an empty
/// program (the compiler's implicit main).
#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    let data = Array(UnsafeBufferPointer(start: start, count: count))
    let orientation = ExifOrientation(jpeg: data)
    if let thumbnail = ExifThumbnail.bytes(in: data) {
        precondition(thumbnail.count < data.count && thumbnail.starts(with: [0xFF, 0xD8]), "an EXIF thumbnail from outside the segment")
    }
    precondition((1...8).contains(orientation.value), "orientation out of range: \(orientation.value)")
    let image = PixelBuffer(width: 3, height: 2, bytes: [UInt8](repeating: 7, count: 3 * 2 * 4))
    let turned = orientation.apply(to: image)
    precondition(turned.width * turned.height == 6, "an orientation changed the pixel count")
    return 0
}

@_cdecl("fuzz_exif_main")
func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv, fuzzExif)
}
#endif

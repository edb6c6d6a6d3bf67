import ImagePipeline
import FuzzSupport

/// libFuzzer target: arbitrary bytes as a photo file, through the format sniffer, the JPEG,
/// PNG, WebP and GIF decoders (EXIF orientation, CMYK, DCT and WebP scaling, a GIF's first
/// frame), the crop and the cell
/// conversion, as a worker prepares a thumbnail, and through the PNG text-chunk reader the
/// thumbnail cache trusts a cached PNG with. `make fuzz` builds it with
/// `-sanitize=fuzzer,address -DFUZZING`; a normal build makes an empty
/// program (the compiler's implicit main).
#if FUZZING
nonisolated(unsafe) let preparer = ImagePreparer(colorMode: .palette240)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImages(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let window = count % 2 == 0 ? CropWindow.whole : CropWindow(x: 0.1, y: 0.2, width: 0.6, height: 0.6)
    _ = try? preparer.prepare(bytes, as: AssetID(path: "fuzz", window: window), columns: 1 + count % 40, rows: 1 + count % 12)
    // A thumbnail cache's PNG is read for its text chunks before it is trusted.
    // Each entry needs a chunk of its own (12 bytes of length, type and CRC at least).
    precondition(PNGText.entries(of: bytes).count <= count / 12, "more text entries than chunks")
    return 0
}

@_cdecl("fuzz_images_main")
func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv, fuzzImages)
}
#endif

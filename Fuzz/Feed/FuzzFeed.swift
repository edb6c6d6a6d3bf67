import FeedFormat
import FuzzSupport

/// libFuzzer target: arbitrary bytes as a server's answer to a feed — a timeline body (with
/// the same bytes as its Link header), and as text through the Link, BlurHash, HTML, date
/// and range parsers. Every one must return or refuse, never trap. `make fuzz` builds it; a
/// normal build makes an empty program (the compiler's implicit main).
#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    FeedInputs.exercise(bytes)
    return 0
}

@_cdecl("fuzz_feed_main")
func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv, fuzzFeed)
}
#endif

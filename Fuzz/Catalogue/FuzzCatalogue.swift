import DestinationsModel
import FuzzSupport
import Foundation

/// libFuzzer target: arbitrary bytes as `catalog.json` over the bundled Assets folder
/// (JSON decoding, duplicate ids, missing photos), then every post of a scaled catalogue
/// made. `make fuzz` builds it; a normal build makes an empty
/// program (the compiler's implicit main).
#if FUZZING
let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Assets")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogue(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    guard let catalogue = try? Catalogue(catalogue: Data(bytes: start, count: count), folder: assets) else { return 0 }
    for index in 0..<min(catalogue.baseCount * 3, 300) { _ = catalogue.post(index) }
    return 0
}

@_cdecl("fuzz_catalogue_main")
func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv, fuzzCatalogue)
}
#endif

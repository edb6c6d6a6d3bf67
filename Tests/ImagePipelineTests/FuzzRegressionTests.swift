import Foundation
import ImagePipeline
import Testing

/// Every input `make fuzz` starts from or ever found a bug with (Fuzz/Seeds, Fuzz/Regressions)
/// goes through the same code as the fuzz targets: an error is fine, a trap is not.
@Suite struct FuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        try ["Seeds", "Regressions"].flatMap { kind -> [(String, [UInt8])] in
            let folder = fuzz.appendingPathComponent("\(kind)/\(target)")
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted().map { name in
                ("\(kind)/\(target)/\(name)", Array(try Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
    }

    @Test func imageInputsPrepareOrFailCleanly() throws {
        let preparer = ImagePreparer(colorMode: .palette240)
        let inputs = try Self.inputs("images")
        #expect(inputs.count >= 10)
        var prepared = 0
        for input in inputs {
            let window = input.bytes.count % 2 == 0 ? CropWindow.whole : CropWindow(x: 0.1, y: 0.2, width: 0.6, height: 0.6)
            if (try? preparer.prepare(input.bytes, as: AssetID(path: input.name, window: window), columns: 1 + input.bytes.count % 40,
                                      rows: 1 + input.bytes.count % 12)) != nil { prepared += 1 }
        }
        #expect(prepared > 0, "the seeds include good photos")
    }

    @Test func aPNGHeaderWhoseSidesOverflowIsRefusedAsTooLarge() throws {
        let bytes = try #require(try Self.inputs("images").first { $0.name.hasSuffix("png-header-sides-overflow") }?.bytes)
        #expect(throws: ImageError.self) { try ImagePreparer(colorMode: .palette240).prepare(bytes, as: AssetID(path: "x"), columns: 4, rows: 2) }
        #expect(ImageLimits.exceeded(width: Int(UInt32.max), height: Int(UInt32.max)))
        #expect(!ImageLimits.exceeded(width: 10_000, height: 10_000) && ImageLimits.exceeded(width: 10_001, height: 10_000))
    }

    @Test func exifInputsGiveAnOrientationInRange() throws {
        for input in try Self.inputs("exif") {
            let orientation = ExifOrientation(jpeg: input.bytes)
            #expect((1...8).contains(orientation.value), "\(input.name)")
        }
    }
}

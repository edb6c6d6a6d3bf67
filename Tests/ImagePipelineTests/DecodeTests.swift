import Foundation
import ImagePipeline
import Testing

func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)!.path
}

/// Colour within `tolerance` per channel.
func near(_ pixel: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ rgb: (Int, Int, Int), tolerance: Int = 12) -> Bool {
    abs(Int(pixel.r) - rgb.0) <= tolerance && abs(Int(pixel.g) - rgb.1) <= tolerance && abs(Int(pixel.b) - rgb.2) <= tolerance
}

let red = (220, 20, 20), green = (20, 200, 40), blue = (30, 40, 210), white = (250, 250, 250)

@Suite struct DecodeTests {
    let preparer = ImagePreparer(colorMode: .truecolor)

    func decode(_ name: String, columns: Int = 8, rows: Int = 4, fullSize: Bool = true) throws -> PixelBuffer {
        try preparer.decode(AssetID(path: fixture(name)), columns: columns, rows: rows, fullSize: fullSize)
    }

    @Test(arguments: ["quadrants.jpg", "quadrants-progressive.jpg", "quadrants.png", "png-named.jpg"])
    func knownImageDecodesWithItsSizeAndColours(name: String) throws {
        let image = try decode(name)
        #expect(image.width == 64 && image.height == 32)
        #expect(near(image.pixel(x: 8, y: 8), red))
        #expect(near(image.pixel(x: 56, y: 8), green))
        #expect(near(image.pixel(x: 8, y: 24), blue))
        #expect(near(image.pixel(x: 56, y: 24), white))
        #expect(image.pixel(x: 0, y: 0).a == 255)
    }

    @Test func exifOrientationSixTurnsTheImageClockwise() throws {
        let image = try decode("orientation-6.jpg")
        #expect(image.width == 32 && image.height == 64)
        // Turned clockwise: the stored top-left (red) is now top-right, bottom-left (blue) top-left.
        #expect(near(image.pixel(x: 24, y: 8), red))
        #expect(near(image.pixel(x: 8, y: 8), blue))
        #expect(near(image.pixel(x: 24, y: 56), green))
        #expect(near(image.pixel(x: 8, y: 56), white))
    }

    @Test func cmykJPEGIsConvertedNotRefused() throws {
        let image = try decode("cmyk.jpg")
        #expect(image.width == 64)
        #expect(near(image.pixel(x: 8, y: 8), red, tolerance: 30))
        #expect(near(image.pixel(x: 56, y: 24), white, tolerance: 30))
    }

    @Test func thumbnailDecodeUsesTheSmallestCoveringScale() throws {
        // 800×400 photo, 10×5-cell canvas → needs 80×40 pixels → 1/8 (100×50) covers it.
        let small = try decode("quadrants-800.jpg", columns: 10, rows: 5, fullSize: false)
        #expect(small.width == 100 && small.height == 50)
        // 30×10 cells → 240×80 → 3/8 gives 300×150; 1/4 (200×100) would not cover 240.
        let medium = try decode("quadrants-800.jpg", columns: 30, rows: 10, fullSize: false)
        #expect(medium.width == 300 && medium.height == 150)
        // Beyond the photo: full size, never upscaled.
        let large = try decode("quadrants-800.jpg", columns: 200, rows: 60, fullSize: false)
        #expect(large.width == 800 && large.height == 400)
        #expect(near(small.pixel(x: 10, y: 10), red) && near(small.pixel(x: 90, y: 40), white))
    }

    @Test func cropWindowCoversTheDecodeSize() throws {
        // Half the width of the photo shown on 10×5 cells needs 160 px of the full width.
        let asset = AssetID(path: fixture("quadrants-800.jpg"), window: CropWindow(x: 0.5, y: 0, width: 0.5, height: 0.5))
        let pixels = try preparer.decode(asset, columns: 10, rows: 5)
        #expect(pixels.width == 200)  // 1/4: the smallest factor giving ≥ 160 × 80
        let cropped = pixels.cropped(to: asset.window)
        #expect(cropped.width == 100 && cropped.height == 50)
        #expect(near(cropped.pixel(x: 50, y: 25), green))
    }
}

@Suite struct BadInputTests {
    let preparer = ImagePreparer(colorMode: .truecolor)

    func failure(_ path: String) -> ImageError? {
        do {
            _ = try preparer.prepare(AssetID(path: path), columns: 8, rows: 4)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyBadFileGivesItsTypedError() {
        #expect(failure(fixture("empty.jpg")) == .empty(path: fixture("empty.jpg")))
        #expect(failure(fixture("not-an-image.jpg")) == .notAnImage(path: fixture("not-an-image.jpg")))
        #expect(failure(fixture("huge-header.png")) == .tooLarge(path: fixture("huge-header.png"), width: 100_000, height: 100_000))
        #expect(failure(fixture("huge-header.jpg")) == .tooLarge(path: fixture("huge-header.jpg"), width: 65_000, height: 65_000))
        let missing = fixture("quadrants.jpg") + ".gone"
        #expect(failure(missing) == .missing(path: missing))
        let directory = (fixture("quadrants.jpg") as NSString).deletingLastPathComponent
        #expect(failure(directory) == .unreadable(path: directory, reason: "not a regular file"))
        guard case .corrupt(_, let reason)? = failure(fixture("corrupt.jpg")) else {
            Issue.record("corrupt.jpg: expected .corrupt, got \(String(describing: failure(fixture("corrupt.jpg"))))")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test func errorTextsSayWhatIsWrong() {
        #expect(ImageError.tooLarge(path: "a.png", width: 100_000, height: 100_000).description == "a.png: 100000×100000 pixels is over the limit of 100 megapixels")
        #expect(ImageError.empty(path: "b.jpg").shortLabel == "empty")
    }

    @Test func aNamedPipeIsRefusedNotWaitedOn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString).jpg").path
        #expect(mkfifo(path, 0o644) == 0)
        defer { unlink(path) }
        #expect(failure(path) == .unreadable(path: path, reason: "not a regular file"))
    }

    /// A truncated JPEG is a warning in TurboJPEG: the part that arrived is kept (as a
    /// browser shows a half-loaded photo), grey below it.
    @Test func truncatedJPEGKeepsThePartThatArrived() throws {
        let pixels = try preparer.decode(AssetID(path: fixture("truncated.jpg")), columns: 8, rows: 4, fullSize: true)
        #expect(pixels.width == 800 && pixels.height == 400)
        #expect(near(pixels.pixel(x: 10, y: 10), red))
    }
}

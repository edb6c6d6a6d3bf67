import Foundation
import ImagePipeline
import Testing

/// WebP and GIF (issue 45): decoded off the main thread like a JPEG, at display size where
/// the format allows, the first frame of an animation, under the same limits.
@Suite struct WebPGIFDecodeTests {
    let preparer = ImagePreparer(colorMode: .truecolor)

    func decode(_ name: String, columns: Int = 8, rows: Int = 4, fullSize: Bool = true) throws -> PixelBuffer {
        try preparer.decode(AssetID(path: fixture(name)), columns: columns, rows: rows, fullSize: fullSize)
    }

    @Test(arguments: ["quadrants.webp", "quadrants-lossless.webp", "quadrants.gif", "quadrants-interlaced.gif", "animated.webp", "animated.gif"])
    func knownImageDecodesWithItsSizeAndColours(name: String) throws {
        let image = try decode(name)
        #expect(image.width == 64 && image.height == 32)
        #expect(near(image.pixel(x: 8, y: 8), red), "\(image.pixel(x: 8, y: 8))")
        #expect(near(image.pixel(x: 56, y: 8), green))
        #expect(near(image.pixel(x: 8, y: 24), blue))
        #expect(near(image.pixel(x: 56, y: 24), white), "an animation's first frame, not its black second")
    }

    @Test func aWebPIsDecodedAtTheSizeTheCellsNeed() throws {
        // 800×400, 10×5 cells → 80×40 pixels cover them: libwebp scales while decoding.
        let small = try decode("quadrants-800.webp", columns: 10, rows: 5, fullSize: false)
        #expect(small.width >= 80 && small.height >= 40 && small.width <= 81 && small.height <= 41, "\(small.width)×\(small.height)")
        #expect(near(small.pixel(x: 10, y: 10), red) && near(small.pixel(x: 70, y: 30), white))
        let whole = try decode("quadrants-800.webp", columns: 10, rows: 5, fullSize: true)
        #expect(whole.width == 800 && whole.height == 400)
    }

    @Test func transparentGIFPixelsShowWhite() throws {
        let image = try decode("transparent.gif")
        #expect(near(image.pixel(x: 8, y: 8), (255, 255, 255), tolerance: 0), "index 0 (red) is transparent")
        #expect(near(image.pixel(x: 8, y: 24), blue))
    }

    @Test(arguments: ["huge-header.webp", "huge-screen.gif"])
    func hugeClaimsAreRefusedFromTheHeader(name: String) {
        #expect { try decode(name, fullSize: false) } throws: { error in
            if case ImageError.tooLarge = error { true } else { false }
        }
    }

    @Test(arguments: ["truncated.webp", "truncated.gif"])
    func brokenFilesFailCleanly(name: String) {
        #expect { try decode(name) } throws: { error in
            switch error as? ImageError {
            case .corrupt?, .tooLarge?: true
            default: false
            }
        }
    }

    @Test func formatsAreKnownByTheirFirstBytes() throws {
        for (name, format) in [("quadrants.webp", ImageFormat.webp), ("animated.webp", .webp), ("quadrants.gif", .gif)] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture(name))))
            #expect(ImageFormat(sniffing: bytes) == format)
        }
        #expect(ImageFormat(sniffing: Array("RIFF\0\0\0\0WAVE".utf8)) == nil, "a RIFF that is not WebP")
    }
}

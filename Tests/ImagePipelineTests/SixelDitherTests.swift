@testable import ImagePipeline
import Testing

/// Ordered dithering (D-084): an area between two palette entries shows both, in a pattern
/// whose mean is its colour, where plain mapping shows one.
@Suite struct SixelDitherTests {
    static func flat(_ grey: UInt8, width: Int = 16, height: Int = 16) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: (0..<width * height).flatMap { _ in [grey, grey, grey, 255] })
    }

    static let blackAndWhite: [(r: UInt8, g: UInt8, b: UInt8)] = [(0, 0, 0), (255, 255, 255)]

    @Test func aGreyBetweenTwoEntriesBecomesAPatternOfBoth() {
        let indices = SixelDither.indices(of: Self.flat(128), palette: Self.blackAndWhite)
        let white = indices.filter { $0 == 1 }.count
        #expect(white > 0 && white < indices.count, "both entries appear: \(white) of \(indices.count) white")
        let mean = Double(white) * 255 / Double(indices.count)
        #expect(abs(mean - 128) <= 16, "the pattern's mean is the grey: \(mean)")
    }

    @Test func aColourOnAnEntryStaysOnIt() {
        #expect(SixelDither.indices(of: Self.flat(0), palette: Self.blackAndWhite).allSatisfy { $0 == 0 })
        #expect(SixelDither.indices(of: Self.flat(255), palette: Self.blackAndWhite).allSatisfy { $0 == 1 })
    }

    /// A grey ramp at 16 colours: dithered, the means of 4×4 blocks are nearer the ramp's
    /// than plain mapping's bands, and the image still decodes.
    @Test func aRampKeepsItsToneBetterDithered() throws {
        let width = 128, height = 24
        let ramp = PixelBuffer(width: width, height: height, bytes: (0..<width * height).flatMap { i -> [UInt8] in
            let v = UInt8((i % width) * 255 / (width - 1))
            return [v, v, v, 255]
        })
        func toneError(dither: Bool) throws -> Double {
            let strip = try #require(SixelEncoder.strips(of: ramp, cellHeight: height, colors: 16, coloursPerBand: nil, dither: dither).first)
            let decoded = try #require(SixelDecoder.decode(strip))
            var squared = 0.0, count = 0
            for top in stride(from: 0, to: height, by: 4) {
                for left in stride(from: 0, to: width, by: 4) {
                    var a = 0.0, b = 0.0
                    for y in top..<top + 4 {
                        for x in left..<left + 4 {
                            a += Double(ramp.pixel(x: x, y: y).g)
                            b += Double(decoded.pixel(x: x, y: y).g)
                        }
                    }
                    squared += (a - b) * (a - b) / 256
                    count += 1
                }
            }
            return (squared / Double(count)).squareRoot()
        }
        let plain = try toneError(dither: false), dithered = try toneError(dither: true)
        #expect(dithered < plain, "tone error dithered \(dithered) against plain \(plain)")
    }
}

import CoreKit
import ImagePipeline
import Testing

/// The encoder's exact bytes, pinned: D-068 rewrote its loops for speed and kept its output
/// byte for byte, and a later change to the hot loops must too (or change this digest on
/// purpose, with the reason in DECISIONS.md). Changed on purpose once since: D-077's median
/// cut palette at the app's 16 colours (the digests before were the encoder's before D-068 too).
@Suite struct SixelBytesTests {
    /// A photo-like 156×91 picture (xterm's 26×7 cells of 6×13 px): smooth gradients with
    /// seeded grain, so bands meet more colours than their cap, runs are long and short, and
    /// numbers reach three digits.
    static let picture: PixelBuffer = {
        var random = SplitMix64(seed: 68)
        var bytes: [UInt8] = []
        for y in 0..<91 {
            for x in 0..<156 {
                let grain = Int(random.next() % 24) - 12
                bytes += [UInt8(clamping: x * 255 / 155 + grain), UInt8(clamping: y * 255 / 90 + grain),
                          UInt8(clamping: (x + y) * 255 / 245 - grain), 255]
            }
        }
        return PixelBuffer(width: 156, height: 91, bytes: bytes)
    }()

    @Test func theStripsAreTheBytesTheyWere() {
        let app = SixelEncoder.strips(of: Self.picture, cellHeight: 13, colors: SixelEncoder.defaultColors)
        let uncapped = SixelEncoder.strips(of: Self.picture, cellHeight: 13, colors: 256, coloursPerBand: nil)
        #expect(app.count == 7 && uncapped.count == 7)
        #expect(MD5.hex(app.joined()) == "a20d441e249f2d44318f76a5f2a26cd9")
        #expect(MD5.hex(uncapped.joined()) == "04aae7413f274e0cb21c8d33511738c6")
    }
}

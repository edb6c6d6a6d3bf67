import CoreKit
import Foundation
@testable import ImagePipeline
import Testing

/// The DC-scan decoder against TurboJPEG's own 1/8-scale decode of the same file: luma is the
/// same arithmetic (libjpeg's 1×1 inverse DCT), so grey, 4:4:4 and 4:2:2 must come out
/// identical, and 4:2:0 differ only in chroma (TurboJPEG's 2×2 inverse DCT, our interpolation).
@Suite struct ProgressiveDCDecoderTests {
    static let bundled = ["path.jpg", "storm.jpg", "rain-drops.jpg", "darkest-hour.jpg"]

    func bytes(fixtureNamed name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: fixture(name)))) }
    func bytes(photoNamed name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: assetsFolder.appendingPathComponent("photos/\(name)")))
    }

    /// TurboJPEG at 1/8, with the DC path turned off.
    func turbo(_ data: [UInt8]) throws -> PixelBuffer {
        let decoder = JPEGDecoder()
        decoder.readsDCScansAlone = false
        return try decoder.decode(data, path: "x", covering: (1, 1))
    }

    /// Mean and largest absolute difference per channel, and the largest luma difference.
    func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (mean: Double, max: Int, lumaMax: Int) {
        var total = 0, largest = 0, lumaLargest = 0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            for c in 0..<3 {
                let d = abs(Int(a.bytes[i + c]) - Int(b.bytes[i + c]))
                total += d
                largest = max(largest, d)
            }
            func luma(_ p: PixelBuffer) -> Int { (299 * Int(p.bytes[i]) + 587 * Int(p.bytes[i + 1]) + 114 * Int(p.bytes[i + 2])) / 1000 }
            lumaLargest = max(lumaLargest, abs(luma(a) - luma(b)))
        }
        return (Double(total) / Double(a.bytes.count / 4 * 3), largest, lumaLargest)
    }

    @Test(arguments: bundled)
    func bundledProgressivePhotosMatchTurboJPEGAtAnEighth(name: String) throws {
        let data = try bytes(photoNamed: name)
        let ours = try #require(ProgressiveDCDecoder.decode(data))
        let theirs = try turbo(data)
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        let diff = difference(ours, theirs)
        #expect(diff.mean < 2.0, "\(name): mean difference \(diff.mean)")
        #expect(diff.lumaMax <= 12, "\(name): largest luma difference \(diff.lumaMax)")
    }

    @Test(arguments: ["progressive-grey-odd.jpg"])
    func greyIsIdenticalToTurboJPEG(name: String) throws {
        let data = try bytes(fixtureNamed: name)
        let ours = try #require(ProgressiveDCDecoder.decode(data))
        let theirs = try turbo(data)
        #expect(ours.width == 26 && ours.height == 15)   // 203×117 → ⌈/8⌉
        #expect(ours == theirs)
    }

    /// Restart markers every few MCUs, a DC scan of luma alone and one of chroma together,
    /// successive approximation in two steps, 4:2:2, sides that are not whole MCUs.
    @Test(arguments: ["progressive-restarts.jpg", "progressive-scans-422.jpg", "quadrants-progressive.jpg"])
    func restartsScanScriptsAndSamplingMatchTurboJPEG(name: String) throws {
        let data = try bytes(fixtureNamed: name)
        let ours = try ProgressiveDCDecoder.decodeOrExplain(data)
        let theirs = try turbo(data)
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        let diff = difference(ours, theirs)
        #expect(diff.mean < 2.5, "\(name): mean difference \(diff.mean)")
    }

    @Test(arguments: [JPEGEncoder.Subsampling.s444, .s422, .s420, .grey])
    func everySubsamplingTurboJPEGWritesMatches(subsampling: JPEGEncoder.Subsampling) throws {
        // A gradient with a sharp square: blocks of many different DCs.
        var pixels = [UInt8](repeating: 255, count: 333 * 201 * 4)
        for y in 0..<201 {
            for x in 0..<333 {
                let i = (y * 333 + x) * 4
                let inSquare = (100..<180).contains(x) && (50..<120).contains(y)
                pixels[i] = inSquare ? 240 : UInt8(x * 255 / 333)
                pixels[i + 1] = inSquare ? 30 : UInt8(y * 255 / 201)
                pixels[i + 2] = UInt8((x + y) * 255 / 534)
            }
        }
        let data = try JPEGEncoder().encode(PixelBuffer(width: 333, height: 201, bytes: pixels), quality: 85,
                                            subsampling: subsampling, progressive: true)
        let ours = try ProgressiveDCDecoder.decodeOrExplain(data)
        let theirs = try turbo(data)
        #expect(ours.width == 42 && ours.height == 26)
        if subsampling != .s420 {
            #expect(ours == theirs)   // chroma DC-only and repeated in both: the same arithmetic
        } else {
            #expect(difference(ours, theirs).mean < 2.5)
        }
    }

    @Test func baselineAndBrokenFilesAreLeftToTurboJPEG() throws {
        #expect(ProgressiveDCDecoder.decode(try bytes(fixtureNamed: "quadrants.jpg")) == nil)     // baseline
        #expect(ProgressiveDCDecoder.decode(try bytes(fixtureNamed: "cmyk.jpg")) == nil)
        #expect(ProgressiveDCDecoder.decode(try bytes(fixtureNamed: "not-an-image.jpg")) == nil)
        #expect(ProgressiveDCDecoder.decode([]) == nil)
        // Cut before the first scan is whole: a component without its DC is not guessed at.
        let data = try bytes(photoNamed: "storm.jpg")
        let firstScan = try #require((2..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        #expect(ProgressiveDCDecoder.decode(Array(data[..<(firstScan + 4)])) == nil)
    }

    @Test func aFileCutAfterItsDCScansStillDecodes() throws {
        // The default progressive script sends the DCs first: cut half-way through the rest.
        let data = try bytes(photoNamed: "storm.jpg")
        let whole = try #require(ProgressiveDCDecoder.decode(data))
        let cut = try #require(ProgressiveDCDecoder.decode(Array(data[..<(data.count / 2)])))
        // Without the DC refinement at the end, each DC lacks its lowest bit: close, not equal.
        #expect(cut.width == whole.width && difference(cut, whole).mean < 4)
    }

    @Test func everyByteFlippedFailsOrDecodesButNeverTraps() throws {
        let data = try bytes(fixtureNamed: "progressive-restarts.jpg")
        var generator = SplitMix64(seed: 7)
        var decoded = 0
        for _ in 0..<3_000 {
            var mutated = data
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                mutated[Int(generator.next() % UInt64(data.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if let image = ProgressiveDCDecoder.decode(mutated) {
                decoded += 1
                #expect(image.bytes.count == image.width * image.height * 4)
            }
        }
        #expect(decoded > 0)
    }

    @Test func thePreparerReadsDCScansForAThumbnailAndTurboJPEGForTheDetailView() throws {
        let data = try bytes(photoNamed: "path.jpg")
        let decoder = JPEGDecoder()
        let thumbnail = try decoder.decode(data, path: "path.jpg", covering: (160, 96))
        #expect(thumbnail == ProgressiveDCDecoder.decode(data))
        let detail = try decoder.decode(data, path: "path.jpg", covering: (1000, 600))
        #expect(detail.width == 1024 && detail.height == 640)
    }
}

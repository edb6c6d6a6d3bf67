import CoreKit
import Foundation
@testable import FeedFormat
import Testing

/// `Blurhash` computes each cosine once per row and column; the reference computes it per
/// pixel and component. Same expressions, so the same hashes and the same pictures, bit
/// for bit: checked against the reference's loops, written out here, on seeded pictures.
@Suite struct BlurhashReferenceTests {
    static func referenceEncode(rgb: [UInt32], width: Int, height: Int, componentsX: Int, componentsY: Int) -> [(Double, Double, Double)] {
        var factors: [(Double, Double, Double)] = []
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                let normalisation = (i == 0 && j == 0) ? 1.0 : 2.0
                var r = 0.0, g = 0.0, b = 0.0
                for y in 0..<height {
                    let basisY = cos(Double.pi * Double(j) * Double(y) / Double(height))
                    for x in 0..<width {
                        let basis = normalisation * cos(Double.pi * Double(i) * Double(x) / Double(width)) * basisY
                        let pixel = rgb[y * width + x]
                        r += basis * Blurhash.linear(Int(pixel >> 16) & 255)
                        g += basis * Blurhash.linear(Int(pixel >> 8) & 255)
                        b += basis * Blurhash.linear(Int(pixel) & 255)
                    }
                }
                let scale = 1 / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        return factors
    }

    @Test func theFactorsAreTheReferences() {
        var random = SplitMix64(seed: 25)
        for _ in 0..<40 {
            let width = Int.random(in: 1...48, using: &random), height = Int.random(in: 1...48, using: &random)
            let cx = Int.random(in: 1...9, using: &random), cy = Int.random(in: 1...9, using: &random)
            let rgb = (0..<(width * height)).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) }
            let factors = Blurhash.factors(rgb: rgb, width: width, height: height, componentsX: cx, componentsY: cy)
            let reference = Self.referenceEncode(rgb: rgb, width: width, height: height, componentsX: cx, componentsY: cy)
            #expect(factors.count == reference.count)
            #expect(zip(factors, reference).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }, "\(width)×\(height), \(cx)×\(cy)")
        }
    }

    @Test func theDecodedPictureIsTheReferences() throws {
        var random = SplitMix64(seed: 52)
        for _ in 0..<40 {
            let cx = Int.random(in: 1...9, using: &random), cy = Int.random(in: 1...9, using: &random)
            let source = (0..<(16 * 12)).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) }
            let hash = Blurhash.encode(rgb: source, width: 16, height: 12, componentsX: cx, componentsY: cy)
            let width = Int.random(in: 1...64, using: &random), height = Int.random(in: 1...64, using: &random)
            let grid = try #require(Blurhash.decode(hash, width: width, height: height))
            // The reference's decode: per pixel, per component, its own cosines.
            let colors = try #require(Self.colors(of: hash))
            for y in 0..<height {
                for x in 0..<width {
                    var r = 0.0, g = 0.0, b = 0.0
                    for j in 0..<cy {
                        let basisY = cos(Double.pi * Double(y) * Double(j) / Double(height))
                        for i in 0..<cx {
                            let basis = cos(Double.pi * Double(x) * Double(i) / Double(width)) * basisY
                            let color = colors[i + j * cx]
                            r += color.0 * basis
                            g += color.1 * basis
                            b += color.2 * basis
                        }
                    }
                    let expected = UInt32(Blurhash.sRGB(r)) << 16 | UInt32(Blurhash.sRGB(g)) << 8 | UInt32(Blurhash.sRGB(b))
                    #expect(grid.rgb[y * width + x] == expected)
                }
            }
        }
    }

    /// The colours a hash holds, as the reference reads them (punch 1).
    static func colors(of hash: String) -> [(Double, Double, Double)]? {
        let characters = Array(hash.utf8)
        guard let sizeFlag = Blurhash.decode83(characters[0..<1]), let quantisedMaximum = Blurhash.decode83(characters[1..<2]),
              let dc = Blurhash.decode83(characters[2..<6]) else { return nil }
        let count = (sizeFlag / 9 + 1) * (sizeFlag % 9 + 1)
        let maximum = Double(quantisedMaximum + 1) / 166
        var colors = [(Blurhash.linear(dc >> 16), Blurhash.linear((dc >> 8) & 255), Blurhash.linear(dc & 255))]
        for component in 1..<max(1, count) {
            guard let value = Blurhash.decode83(characters[(4 + component * 2)..<(6 + component * 2)]) else { return nil }
            func channel(_ quantised: Int) -> Double { Blurhash.signedPower((Double(quantised) - 9) / 9, 2) * maximum }
            colors.append((channel(value / (19 * 19)), channel((value / 19) % 19), channel(value % 19)))
        }
        return colors
    }
}

import Foundation

/// BlurHash (the format Mastodon, Pixelfed and most photo apps send beside a photo): a few
/// DCT components of the picture in base 83, 20 to 30 characters. Real clients draw it
/// while the photo loads; so does the grid, as a placeholder's colours.
///
/// Written here rather than taken from a package: the reference is one short file per
/// language, no Swift package for Linux is mirrored here, and both directions are needed
/// (the app decodes, `destinations-feed` encodes its photos' hashes).
public enum Blurhash {
    /// A decoded hash's colours: `width` × `height` 0xRRGGBB values, row by row.
    public struct Grid: Sendable, Hashable {
        public let width: Int
        public let height: Int
        public let rgb: [UInt32]
    }

    /// The picture `hash` stands for at `width` × `height` (at most 64 × 64: a
    /// placeholder is a few cells), or nil when `hash` is not a valid BlurHash. `punch`
    /// scales the contrast, as in the reference decoder.
    /// - Complexity: O(width × height × components); components ≤ 81. The cosines are
    /// computed once per row and column (the reference computes them per pixel).
    public static func decode(_ hash: String, width: Int, height: Int, punch: Double = 1) -> Grid? {
        guard (1...64).contains(width), (1...64).contains(height) else { return nil }
        let characters = Array(hash.utf8)
        guard characters.count >= 6, let sizeFlag = decode83(characters[0..<1]) else { return nil }
        let componentsY = sizeFlag / 9 + 1, componentsX = sizeFlag % 9 + 1
        guard characters.count == 4 + 2 * componentsX * componentsY,
              let quantisedMaximum = decode83(characters[1..<2]), let dc = decode83(characters[2..<6]) else { return nil }
        let maximum = Double(quantisedMaximum + 1) / 166
        var colors: [(Double, Double, Double)] = [(linear(dc >> 16), linear((dc >> 8) & 255), linear(dc & 255))]
        for component in 1..<(componentsX * componentsY) {
            let start = 4 + component * 2
            guard let value = decode83(characters[start..<(start + 2)]) else { return nil }
            func channel(_ quantised: Int) -> Double { signedPower((Double(quantised) - 9) / 9, 2) * maximum * punch }
            colors.append((channel(value / (19 * 19)), channel((value / 19) % 19), channel(value % 19)))
        }
        // Each basis value once per row and per column, not once per pixel and component.
        var cosineX = [Double](repeating: 0, count: componentsX * width), cosineY = [Double](repeating: 0, count: componentsY * height)
        for i in 0..<componentsX { for x in 0..<width { cosineX[i * width + x] = cos(Double.pi * Double(x) * Double(i) / Double(width)) } }
        for j in 0..<componentsY { for y in 0..<height { cosineY[j * height + y] = cos(Double.pi * Double(y) * Double(j) / Double(height)) } }
        var rgb = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var r = 0.0, g = 0.0, b = 0.0
                for j in 0..<componentsY {
                    let basisY = cosineY[j * height + y]
                    for i in 0..<componentsX {
                        let basis = cosineX[i * width + x] * basisY
                        let color = colors[i + j * componentsX]
                        r += color.0 * basis
                        g += color.1 * basis
                        b += color.2 * basis
                    }
                }
                rgb[y * width + x] = UInt32(sRGB(r)) << 16 | UInt32(sRGB(g)) << 8 | UInt32(sRGB(b))
            }
        }
        return Grid(width: width, height: height, rgb: rgb)
    }

    /// The hash of a picture of `width` × `height` 0xRRGGBB pixels, row by row, with
    /// `componentsX` × `componentsY` components (1...9 each; 4 × 3 is what Mastodon uses).
    /// - Complexity: O(pixels × components): encode a small copy, not the photo.
    public static func encode(rgb: [UInt32], width: Int, height: Int, componentsX: Int = 4, componentsY: Int = 3) -> String {
        precondition((1...9).contains(componentsX) && (1...9).contains(componentsY), "Blurhash.encode: components must be 1...9")
        precondition(width > 0 && height > 0 && rgb.count == width * height, "Blurhash.encode: \(rgb.count) pixels for \(width)×\(height)")
        let factors = Self.factors(rgb: rgb, width: width, height: height, componentsX: componentsX, componentsY: componentsY)
        var hash = encode83((componentsX - 1) + (componentsY - 1) * 9, length: 1)
        let ac = factors.dropFirst()
        let maximum: Double
        if let actual = ac.map({ max(abs($0.0), abs($0.1), abs($0.2)) }).max() {
            let quantised = Int(max(0, min(82, (actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += encode83(quantised, length: 1)
        } else {
            maximum = 1
            hash += encode83(0, length: 1)
        }
        let dc = factors[0]
        hash += encode83(sRGB(dc.0) << 16 | sRGB(dc.1) << 8 | sRGB(dc.2), length: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int { Int(max(0, min(18, (signedPower(value / maximum, 0.5) * 9 + 9.5).rounded(.down)))) }
            hash += encode83(quantise(factor.0) * 19 * 19 + quantise(factor.1) * 19 + quantise(factor.2), length: 2)
        }
        return hash
    }

    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)
    static let digits: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(value) }
        return table
    }()

    static func decode83(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            let digit = digits[Int(byte)]
            guard digit >= 0 else { return nil }
            value = value * 83 + Int(digit)
        }
        return value
    }

    static func encode83(_ value: Int, length: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: length)
        var rest = value
        for index in stride(from: length - 1, through: 0, by: -1) {
            bytes[index] = alphabet[rest % 83]
            rest /= 83
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The picture's DCT factors, (r, g, b) in linear light, row of components by row.
    static func factors(rgb: [UInt32], width: Int, height: Int, componentsX: Int, componentsY: Int) -> [(Double, Double, Double)] {
        var factors: [(Double, Double, Double)] = []
        let table = linearTable
        let lr = rgb.map { table[Int($0 >> 16) & 255] }, lg = rgb.map { table[Int($0 >> 8) & 255] }, lb = rgb.map { table[Int($0) & 255] }
        // Each basis value once per row and per column, not once per pixel and component:
        // a status page's forty hashes took `destinations-feed` 4.5 ms of CPU a page, two
        // thirds of it in `cos` and `pow`, and its pages preempted the app's frame loop in
        // the paging benchmark (D-055). Same expressions, so the same hashes.
        var cosineX = [Double](repeating: 0, count: componentsX * width), cosineY = [Double](repeating: 0, count: componentsY * height)
        for i in 0..<componentsX { for x in 0..<width { cosineX[i * width + x] = cos(Double.pi * Double(i) * Double(x) / Double(width)) } }
        for j in 0..<componentsY { for y in 0..<height { cosineY[j * height + y] = cos(Double.pi * Double(j) * Double(y) / Double(height)) } }
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                let normalisation = (i == 0 && j == 0) ? 1.0 : 2.0
                var r = 0.0, g = 0.0, b = 0.0
                for y in 0..<height {
                    let basisY = cosineY[j * height + y]
                    for x in 0..<width {
                        let basis = normalisation * cosineX[i * width + x] * basisY
                        let p = y * width + x
                        r += basis * lr[p]
                        g += basis * lg[p]
                        b += basis * lb[p]
                    }
                }
                let scale = 1 / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        return factors
    }

    /// ``linear(_:)`` of every 8-bit value.
    static let linearTable: [Double] = (0..<256).map(linear)

    static func linear(_ value: Int) -> Double {
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func sRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.003_130_8 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    static func signedPower(_ value: Double, _ exponent: Double) -> Double {
        value < 0 ? -pow(-value, exponent) : pow(value, exponent)
    }
}

/// Reads sixel images back into pixels: what a terminal does with ``SixelEncoder``'s
/// strips (for tests, the fuzzer and the screenshot checks; not on any frame's path).
public enum SixelDecoder {
    /// The pixels of one sixel image (DCS … q … ST): width and height from its raster
    /// attributes; pixels never set are (0, 0, 0, 0). Nil when `image` is not sixel.
    public static func decode(_ image: [UInt8]) -> PixelBuffer? {
        guard let q = image.firstIndex(of: UInt8(ascii: "q")), image.starts(with: [0x1B, UInt8(ascii: "P")]) else { return nil }
        var index = q + 1
        func number() -> Int {
            var value = 0
            while index < image.count, (0x30...0x39).contains(image[index]) {
                value = min(value * 10 + Int(image[index] - 0x30), 1 << 20)
                index += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while index < image.count, image[index] == UInt8(ascii: ";") {
                index += 1
                values.append(number())
            }
            return values
        }
        guard index < image.count, image[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let raster = numbers()
        guard raster.count == 4, raster[2] > 0, raster[3] > 0, raster[2] * raster[3] <= 1 << 24 else { return nil }
        let width = raster[2], height = raster[3]
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var registers = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: 1024)
        var colour = 0, x = 0, bandTop = 0
        func paint(_ sixel: UInt8, times: Int) {
            let bits = sixel &- 63
            for _ in 0..<times {
                defer { x += 1 }
                guard x < width else { continue }
                for dy in 0..<6 where bits & (1 << dy) != 0 && bandTop + dy < height {
                    let i = ((bandTop + dy) * width + x) * 4
                    (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = (registers[colour].0, registers[colour].1, registers[colour].2, 255)
                }
            }
        }
        while index < image.count {
            let byte = image[index]
            switch byte {
            case 0x1B: return PixelBuffer(width: width, height: height, bytes: bytes)
            case UInt8(ascii: "#"):
                index += 1
                let fields = numbers()
                colour = min(fields[0], registers.count - 1)
                if fields.count == 5, fields[1] == 2 {
                    func level(_ percent: Int) -> UInt8 { UInt8(min(percent, 100) * 255 / 100) }
                    registers[colour] = (level(fields[2]), level(fields[3]), level(fields[4]))
                }
            case UInt8(ascii: "!"):
                index += 1
                let times = number()
                if index < image.count { paint(image[index], times: times) }
                index += 1
            case UInt8(ascii: "$"):
                x = 0
                index += 1
            case UInt8(ascii: "-"):
                x = 0
                bandTop += 6
                index += 1
            case 63...126:
                paint(byte, times: 1)
                index += 1
            default:
                index += 1
            }
        }
        return nil
    }
}

/// PNG text chunks, read and written at the chunk level: libpng's simplified API (what
/// ``PNGCodec`` uses) has no text, and the freedesktop thumbnail cache keys each thumbnail
/// on two of them (`Thumb::URI`, `Thumb::MTime`).
public enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Every `tEXt` and uncompressed `iTXt` keyword and text of `png`, in file order; empty
    /// for bytes that are not a PNG. Stops at `IDAT` (the spec's writers put text first)
    /// and at the first chunk that does not fit.
    public static func entries(of png: [UInt8]) -> [(keyword: String, text: String)] {
        guard png.starts(with: signature) else { return [] }
        var result: [(String, String)] = []
        var offset = signature.count
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= png.count else { break }
            let body = png[start..<(start + length)]
            if type == "IDAT" || type == "IEND" { break }
            if let separator = body.firstIndex(of: 0) {
                let keyword = String(decoding: body[body.startIndex..<separator], as: UTF8.self)
                if type == "tEXt" {
                    // Latin-1 by the PNG spec.
                    result.append((keyword, String(body[(separator + 1)...].map { Character(Unicode.Scalar($0)) })))
                } else if type == "iTXt", separator + 2 < body.endIndex, body[separator + 1] == 0 {
                    // Not compressed: skip the method byte, then language and translated keyword.
                    var rest = body[(separator + 3)...]
                    for _ in 0..<2 {
                        guard let end = rest.firstIndex(of: 0) else { rest = rest[rest.endIndex...]; break }
                        rest = rest[(end + 1)...]
                    }
                    result.append((keyword, String(decoding: rest, as: UTF8.self)))
                }
            }
            offset = start + length + 4
        }
        return result
    }

    /// `png` with `entries` as chunks right after `IHDR`: `tEXt` when the text is ASCII,
    /// `iTXt` (UTF-8, uncompressed) otherwise. Nil when `png` does not start with IHDR.
    public static func inserting(_ entries: [(keyword: String, text: String)], into png: [UInt8]) -> [UInt8]? {
        let ihdrEnd = signature.count + 8 + 13 + 4
        guard png.starts(with: signature), png.count >= ihdrEnd, png[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        var chunks: [UInt8] = []
        for (keyword, text) in entries {
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                chunks += chunk("tEXt", Array(keyword.utf8) + [0] + Array(text.utf8))
            } else {
                chunks += chunk("iTXt", Array(keyword.utf8) + [0, 0, 0, 0, 0] + Array(text.utf8))
            }
        }
        return Array(png[..<ihdrEnd]) + chunks + Array(png[ihdrEnd...])
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let length = UInt32(body.count)
        var bytes = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        bytes += typeBytes + body
        let crc = CRC32.checksum(typeBytes + body)
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }
}

/// The CRC-32 of PNG chunks (and zlib, gzip): polynomial 0xEDB88320, reflected.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

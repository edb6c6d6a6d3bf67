/// The TIFF structure inside a JPEG's APP1 `Exif` segment, bounds-checked at every read:
/// EXIF comes from cameras and from anyone who edits a file (`make fuzz` feeds it junk).
struct ExifTIFF {
    let bytes: [UInt8]
    private let little: Bool

    /// The first APP1 segment that holds EXIF, or nil.
    init?(jpeg data: [UInt8]) {
        for segment in JPEGSegments(data) where segment.marker == 0xE1 {
            let payload = Array(segment.payload)
            guard payload.count >= 14, payload[0..<6].elementsEqual(Array("Exif".utf8) + [0, 0]) else { continue }
            self.init(tiff: Array(payload[6...]))
            return
        }
        return nil
    }

    init(tiff: [UInt8]) {
        bytes = tiff
        little = tiff.starts(with: [0x49, 0x49])
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    /// Offset of IFD0 (the main image's tags).
    var firstDirectory: Int? { u32(4) }

    /// Offset of the directory after the one at `directory` (IFD1: the thumbnail's), or nil.
    func nextDirectory(after directory: Int) -> Int? {
        guard let count = u16(directory), count <= 512, let next = u32(directory + 2 + count * 12), next > 0 else { return nil }
        return next
    }

    /// The value (a SHORT or LONG held in the entry itself) of `tag` in the directory at
    /// `directory`; at most 512 entries are read.
    func value(of tag: Int, inDirectory directory: Int) -> Int? {
        guard let count = u16(directory) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = directory + 2 + entry * 12
            guard u16(at) == tag, let type = u16(at + 2) else { continue }
            return type == 4 ? u32(at + 8) : u16(at + 8)
        }
        return nil
    }
}

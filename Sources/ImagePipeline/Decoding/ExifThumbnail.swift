/// The small JPEG most cameras embed in a photo's EXIF (IFD1, tags 0x0201/0x0202): often
/// 160×120, it decodes in a fraction of the photo's time, so a grid thumbnail that small
/// enough cells need never touches the photo's own pixels.
public enum ExifThumbnail {
    /// The embedded JPEG's bytes, or nil when there is none (or it lies outside the segment).
    public static func bytes(in jpeg: [UInt8]) -> [UInt8]? {
        guard let tiff = ExifTIFF(jpeg: jpeg), let first = tiff.firstDirectory,
              let thumbnail = tiff.nextDirectory(after: first),
              let offset = tiff.value(of: 0x0201, inDirectory: thumbnail),
              let length = tiff.value(of: 0x0202, inDirectory: thumbnail),
              offset > 0, length > 4, offset + length <= tiff.bytes.count else { return nil }
        let bytes = Array(tiff.bytes[offset..<(offset + length)])
        return bytes.starts(with: [0xFF, 0xD8]) ? bytes : nil
    }
}

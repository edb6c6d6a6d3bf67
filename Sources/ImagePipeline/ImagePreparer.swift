/// Decode → orient → crop → convert: everything that turns a file into a ``CellImage``.
///
/// Owns a JPEG decoder and a converter, so one preparer per worker thread. With a
/// ``ThumbnailCache``, the pixels come from the cheapest source that covers the cells: a
/// cached thumbnail, else the photo's EXIF thumbnail, else the photo (whose decode is then
/// saved as a thumbnail for the next time).
public final class ImagePreparer {
    public let colorMode: CellColorMode
    public let thumbnails: ThumbnailCache?
    private let jpeg = JPEGDecoder()
    private let converter: CellConverter

    public init(colorMode: CellColorMode, thumbnails: ThumbnailCache? = nil) {
        self.colorMode = colorMode
        self.thumbnails = thumbnails
        converter = CellConverter(colorMode: colorMode)
    }

    /// Pixels per cell chafa samples; the decode must cover `cells × this` after cropping.
    public static let pixelsPerCell = (width: 8, height: 8)

    /// Prepares `asset` for a `columns` × `rows` canvas. With `fullSize` the JPEG is decoded
    /// at full resolution (the seeds' wrong way, kept for comparison); otherwise at the
    /// smallest DCT scale that covers the canvas after the crop.
    public func prepare(_ asset: AssetID, columns: Int, rows: Int, fullSize: Bool = false) throws(ImageError) -> CellImage {
        let pixels = try decode(asset, columns: columns, rows: rows, fullSize: fullSize)
        return converter.convert(pixels.cropped(to: asset.window), columns: columns, rows: rows)
    }

    /// The decoded (not yet cropped) pixels of `asset`'s file, or of a thumbnail of it
    /// that covers the cells.
    public func decode(_ asset: AssetID, columns: Int, rows: Int, fullSize: Bool = false) throws(ImageError) -> PixelBuffer {
        guard !fullSize, let thumbnails, let photo = thumbnails.photo(at: asset.path) else {
            return try decode(FileLoader.read(asset.path), as: asset, columns: columns, rows: rows, fullSize: fullSize)
        }
        let minimum = Self.covering(asset, columns: columns, rows: rows)
        if let cached = thumbnails.cached(photo, covering: minimum) { return cached }
        if thumbnails.hasFailed(photo) {
            thumbnails.noteKnownFailure()
            throw .corrupt(path: asset.path, reason: "it failed before and has not changed since (thumbnail cache)")
        }
        let data: [UInt8]
        do throws(ImageError) {
            data = try FileLoader.read(asset.path)
            if let embedded = try embeddedThumbnail(in: data, path: asset.path, covering: minimum) {
                thumbnails.noteEmbeddedHit()
                return embedded
            }
            thumbnails.notePhotoDecode()
            // Decoded at least as large as the smallest thumbnail size that covers the cells,
            // so the thumbnail saved from it serves these cells next time.
            let size = orientedSize(of: data).flatMap { photoSize in
                ThumbnailCache.Size.smallest(covering: minimum, photo: photoSize).map { ($0, $0.dimensions(ofPhoto: photoSize)) }
            }
            let wanted = size.map { (width: max($0.1.width, minimum.width), height: max($0.1.height, minimum.height)) } ?? minimum
            let pixels = try decode(data, path: asset.path, covering: wanted)
            if let (target, _) = size { thumbnails.store(pixels, as: target, of: photo) }
            return pixels
        } catch {
            // Broken content stays broken until the file changes (a new mtime); a file that
            // vanished or cannot be opened may come back as it was.
            switch error {
            case .corrupt, .notAnImage, .tooLarge, .unsupported, .empty: thumbnails.recordFailure(of: photo)
            case .missing, .unreadable: break
            }
            throw error
        }
    }

    /// The EXIF thumbnail of a JPEG, oriented as the photo, when it covers `minimum`.
    private func embeddedThumbnail(in data: [UInt8], path: String, covering minimum: (width: Int, height: Int)) throws(ImageError) -> PixelBuffer? {
        guard ImageFormat(sniffing: data) == .jpeg, let bytes = ExifThumbnail.bytes(in: data),
              let small = try? jpeg.decode(bytes, path: path, covering: nil) else { return nil }
        let oriented = ExifOrientation(jpeg: data).apply(to: small)
        return oriented.width >= minimum.width && oriented.height >= minimum.height ? oriented : nil
    }

    /// The photo's size as seen (EXIF orientation applied), from its header alone.
    private func orientedSize(of data: [UInt8]) -> (width: Int, height: Int)? {
        switch ImageFormat(sniffing: data) {
        case .jpeg:
            guard let (width, height) = jpeg.headerSize(data) else { return nil }
            return ExifOrientation(jpeg: data).swapsAxes ? (height, width) : (width, height)
        case .png: return PNGCodec.headerSize(data)
        case nil: return nil
        }
    }

    /// The decoded size (before the crop) that `columns` × `rows` cells of `asset` need.
    static func covering(_ asset: AssetID, columns: Int, rows: Int) -> (width: Int, height: Int) {
        (width: Int((Double(columns * pixelsPerCell.width) / asset.window.width).rounded(.up)),
         height: Int((Double(rows * pixelsPerCell.height) / asset.window.height).rounded(.up)))
    }

    /// ``prepare(_:columns:rows:fullSize:)`` from the file's bytes, already read (what
    /// `make fuzz` feeds with arbitrary bytes).
    public func prepare(_ data: [UInt8], as asset: AssetID, columns: Int, rows: Int) throws(ImageError) -> CellImage {
        let pixels = try decode(data, as: asset, columns: columns, rows: rows, fullSize: false)
        return converter.convert(pixels.cropped(to: asset.window), columns: columns, rows: rows)
    }

    private func decode(_ data: [UInt8], as asset: AssetID, columns: Int, rows: Int, fullSize: Bool) throws(ImageError) -> PixelBuffer {
        try decode(data, path: asset.path, covering: fullSize ? nil : Self.covering(asset, columns: columns, rows: rows))
    }

    /// JPEG at the smallest DCT scale whose output covers `minimum` (full size for nil);
    /// PNG always at full size.
    private func decode(_ data: [UInt8], path: String, covering minimum: (width: Int, height: Int)?) throws(ImageError) -> PixelBuffer {
        switch ImageFormat(sniffing: data) {
        case .jpeg: try jpeg.decode(data, path: path, covering: minimum)
        case .png: try PNGCodec.decode(data, path: path)
        case nil: throw .notAnImage(path: path)
        }
    }
}

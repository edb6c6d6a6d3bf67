/// Decode → orient → crop → convert: everything that turns a file into a ``CellImage``.
///
/// Owns a JPEG decoder and a converter, so one preparer per worker thread.
public final class ImagePreparer {
    public let colorMode: CellColorMode
    private let jpeg = JPEGDecoder()
    private let converter: CellConverter

    public init(colorMode: CellColorMode) {
        self.colorMode = colorMode
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

    /// The decoded (not yet cropped) pixels of `asset`'s file.
    public func decode(_ asset: AssetID, columns: Int, rows: Int, fullSize: Bool = false) throws(ImageError) -> PixelBuffer {
        try decode(FileLoader.read(asset.path), as: asset, columns: columns, rows: rows, fullSize: fullSize)
    }

    /// ``prepare(_:columns:rows:fullSize:)`` from the file's bytes, already read (what
    /// `make fuzz` feeds with arbitrary bytes).
    public func prepare(_ data: [UInt8], as asset: AssetID, columns: Int, rows: Int) throws(ImageError) -> CellImage {
        let pixels = try decode(data, as: asset, columns: columns, rows: rows, fullSize: false)
        return converter.convert(pixels.cropped(to: asset.window), columns: columns, rows: rows)
    }

    private func decode(_ data: [UInt8], as asset: AssetID, columns: Int, rows: Int, fullSize: Bool) throws(ImageError) -> PixelBuffer {
        switch ImageFormat(sniffing: data) {
        case .jpeg:
            let minimum = fullSize ? nil : (
                width: Int((Double(columns * Self.pixelsPerCell.width) / asset.window.width).rounded(.up)),
                height: Int((Double(rows * Self.pixelsPerCell.height) / asset.window.height).rounded(.up))
            )
            return try jpeg.decode(data, path: asset.path, covering: minimum)
        case .png:
            return try PNGCodec.decode(data, path: asset.path)
        case nil:
            throw .notAnImage(path: asset.path)
        }
    }
}

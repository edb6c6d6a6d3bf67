import CellCanvas

/// Decode → orient → crop → convert: everything that turns a file into a ``CellImage``.
///
/// Owns a JPEG decoder and a converter, so one preparer per worker thread. With a
/// ``ThumbnailCache``, the pixels come from the cheapest source that covers the cells: a
/// cached thumbnail, else the photo's EXIF thumbnail, else the photo (whose decode is then
/// saved as a thumbnail for the next time).
public final class ImagePreparer {
    /// The colours the cells use.
    public let colorMode: CellColorMode
    /// Where thumbnails are read and saved, if anywhere.
    public let thumbnails: ThumbnailCache?
    /// What it makes: symbols, or pixels for a graphics protocol.
    public let output: ImageOutput
    /// The protocol's implementation (``ImageOutput/graphics``), looked up once.
    private let graphics: any TerminalGraphics
    private let jpeg = JPEGDecoder()
    private let converter: CellConverter
    /// For ``ImageOutput/truecolorSymbols``: mosaics in 24-bit colour whatever `colorMode` is.
    private lazy var truecolorConverter = CellConverter(colorMode: .truecolor)
    /// The memory decodes share (nil: this preparer never waits, the main thread's).
    private let budget: DecodeBudget?
    /// The current decode's share of ``budget``, held until its cells are made.
    private var held: DecodeBudget.Reservation?

    /// A preparer for `colorMode` cells drawn as `output`, reading and filling `thumbnails`,
    /// its decodes held to `budget`.
    public init(colorMode: CellColorMode, thumbnails: ThumbnailCache? = nil, output: ImageOutput = .symbols, budget: DecodeBudget? = .shared) {
        self.budget = budget
        self.colorMode = colorMode
        self.thumbnails = thumbnails
        self.output = output
        graphics = output.graphics
        converter = CellConverter(colorMode: colorMode)
    }

    /// Pixels one cell stands for: what chafa samples, or the terminal's cell in pixels.
    var cellPixels: (width: Int, height: Int) { graphics.cellPixels ?? Self.pixelsPerCell }

    /// Pixels per cell chafa samples; the decode must cover `cells × this` after cropping.
    public static let pixelsPerCell = (width: 8, height: 8)

    /// Prepares `asset` for a `columns` × `rows` canvas. With `fullSize` the JPEG is decoded
    /// at full resolution (the seeds' wrong way, kept for comparison); otherwise at the
    /// smallest DCT scale that covers the canvas after the crop.
    public func prepare(_ asset: AssetID, columns: Int, rows: Int, fullSize: Bool = false) throws(ImageError) -> CellImage {
        defer { held = nil }
        let pixels = try decode(asset, columns: columns, rows: rows, fullSize: fullSize)
        return try render(pixels.cropped(to: asset.window), columns: columns, rows: rows)
    }

    /// What ``output`` makes of pixels already cropped to the asset's window: the one place
    /// a file's photo and a feed's bytes become cells, so both show in the same graphics.
    private func render(_ cropped: PixelBuffer, columns: Int, rows: Int) throws(ImageError) -> CellImage {
        try graphics.render(cropped, columns: columns, rows: rows,
                            converters: GraphicsConverters(cells: converter, truecolor: { [unowned self] in truecolorConverter }))
    }

    /// The decoded (not yet cropped) pixels of `asset`'s file, or of a thumbnail of it
    /// that covers the cells.
    public func decode(_ asset: AssetID, columns: Int, rows: Int, fullSize: Bool = false) throws(ImageError) -> PixelBuffer {
        guard !fullSize, let thumbnails, let photo = thumbnails.photo(at: asset.path) else {
            return try decode(FileLoader.read(asset.path), as: asset, columns: columns, rows: rows, fullSize: fullSize)
        }
        let minimum = covering(asset, columns: columns, rows: rows)
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
            case .missing, .unreadable, .unavailable, .interrupted: break
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
    public func orientedSize(of data: [UInt8]) -> (width: Int, height: Int)? {
        switch ImageFormat(sniffing: data) {
        case .jpeg:
            guard let (width, height) = jpeg.headerSize(data) else { return nil }
            return ExifOrientation(jpeg: data).swapsAxes ? (height, width) : (width, height)
        case .png: return PNGCodec.headerSize(data)
        case .webp: return WebPCodec.headerSize(data)
        case .gif: return GIFCodec.headerSize(data)
        case nil: return nil
        }
    }

    /// The decoded size (before the crop) that `columns` × `rows` cells of `asset` need.
    func covering(_ asset: AssetID, columns: Int, rows: Int) -> (width: Int, height: Int) {
        (width: Int((Double(columns * cellPixels.width) / asset.window.width).rounded(.up)),
         height: Int((Double(rows * cellPixels.height) / asset.window.height).rounded(.up)))
    }

    /// The file's pixels, decoded at the smallest scale that covers `minimum` (JPEG; PNG at
    /// full size), EXIF orientation applied: what a server makes its previews from.
    public func decodeFile(_ path: String, covering minimum: (width: Int, height: Int)?) throws(ImageError) -> PixelBuffer {
        try decode(FileLoader.read(path), path: path, covering: minimum)
    }

    /// The bytes of the file at `path` (regular files only, at most
    /// ``ImageLimits/maximumFileBytes``).
    public static func readFile(_ path: String) throws(ImageError) -> [UInt8] { try FileLoader.read(path) }

    /// What a source handed over, prepared at `key`'s size: the ``ImageLoader``'s one prepare
    /// step, for a file (through the thumbnail cache) and for bytes alike.
    public func prepare(_ input: ImageInput, for key: PreparedImageKey) throws(ImageError) -> CellImage {
        switch input {
        case .file(let path):
            try prepare(AssetID(path: path, window: key.asset.window), columns: key.columns, rows: key.rows)
        case .bytes(let data):
            try prepare(data, as: key.asset, columns: key.columns, rows: key.rows)
        }
    }

    /// ``prepare(_:columns:rows:fullSize:)`` from the file's bytes, already read (what
    /// `make fuzz` feeds with arbitrary bytes).
    ///
    /// A feed's photos come this way (through ``ImageLoader``): in the preparer's ``output``,
    /// like a file's. (It used to make symbols whatever the output, so a feed in xterm or
    /// kitty never showed a photo as pixels; D-065.)
    public func prepare(_ data: [UInt8], as asset: AssetID, columns: Int, rows: Int) throws(ImageError) -> CellImage {
        defer { held = nil }
        let pixels = try decode(data, as: asset, columns: columns, rows: rows, fullSize: false)
        return try render(pixels.cropped(to: asset.window), columns: columns, rows: rows)
    }

    private func decode(_ data: [UInt8], as asset: AssetID, columns: Int, rows: Int, fullSize: Bool) throws(ImageError) -> PixelBuffer {
        try decode(data, path: asset.path, covering: fullSize ? nil : covering(asset, columns: columns, rows: rows))
    }

    /// JPEG at the smallest DCT scale whose output covers `minimum` (full size for nil);
    /// PNG always at full size.
    private func decode(_ data: [UInt8], path: String, covering minimum: (width: Int, height: Int)?) throws(ImageError) -> PixelBuffer {
        let format = ImageFormat(sniffing: data)
        if let budget {
            held = nil  // this preparer's earlier decode, if its caller kept no cells of it
            let planned: (bytes: Int, width: Int, height: Int)? = switch format {
            case .jpeg: jpeg.plannedBytes(data, covering: minimum)
            case .png: PNGCodec.headerSize(data).flatMap { ImageLimits.exceeded(width: $0.0, height: $0.1) ? nil : ($0.0 * $0.1 * 4, $0.0, $0.1) }
            case .gif: GIFCodec.headerSize(data).flatMap { ImageLimits.exceeded(width: $0.0, height: $0.1) ? nil : ($0.0 * $0.1 * 4, $0.0, $0.1) }
            case .webp: WebPCodec.headerSize(data).flatMap { canvas -> (bytes: Int, width: Int, height: Int)? in
                guard !ImageLimits.exceeded(width: canvas.width, height: canvas.height) else { return nil }
                let size = WebPCodec.decodedSize(canvas: canvas, covering: minimum)
                return (size.width * size.height * 4, size.width, size.height)
            }
            case nil: nil
            }
            if let planned {
                held = try budget.reserve(planned.bytes, path: path, width: planned.width, height: planned.height)
            }
        }
        switch format {
        case .jpeg: return try jpeg.decode(data, path: path, covering: minimum)
        case .png: return try PNGCodec.decode(data, path: path)
        case .webp: return try WebPCodec.decode(data, path: path, covering: minimum)
        case .gif: return try GIFCodec.decode(data, path: path)
        case nil: throw .notAnImage(path: path)
        }
    }
}

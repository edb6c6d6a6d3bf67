/// Reads a whole photo file; every failure becomes an ImageError (the system calls are in
/// ``Platform/readRegularFile(_:limit:)``: only regular files, never blocking).
enum FileLoader {
    static func read(_ path: String) throws(ImageError) -> [UInt8] {
        try Platform.readRegularFile(path, limit: ImageLimits.maximumFileBytes)
    }
}

import Foundation

/// Tells photos from other files by their first bytes, so a folder of anything can be
/// browsed: a misnamed file is judged by its content, an unreadable one is reported.
enum PhotoSniffer {
    enum Kind { case jpeg, png }

    struct Rejection: Error {
        let reason: String
    }

    static func kind(ofFileAt path: String) -> Result<Kind, Rejection> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(Rejection(reason: "cannot be read"))
        }
        defer { try? handle.close() }
        let head: Data
        do { head = try handle.read(upToCount: 8) ?? Data() } catch { return .failure(Rejection(reason: "cannot be read")) }
        let bytes = [UInt8](head)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .success(.jpeg) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .success(.png) }
        return .failure(Rejection(reason: bytes.isEmpty ? "empty" : "not a JPEG or PNG"))
    }
}


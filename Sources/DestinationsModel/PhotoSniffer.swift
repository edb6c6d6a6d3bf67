#if canImport(Glibc)
import Glibc
#endif

/// Tells photos from other files by their first bytes, so a folder of anything can be
/// browsed: a misnamed file is judged by its content, anything else is skipped with its
/// reason.
///
/// Only regular files are read. The open is non-blocking and the type is checked on the
/// open descriptor before any read: a named pipe called `something.jpg` used to block
/// `open` until a writer came, hanging the app before its first screen; a link to
/// `/dev/zero` would never end. Symbolic links are followed as the kernel does (a loop is
/// refused by `open` with ELOOP).
enum PhotoSniffer {
    enum Kind { case jpeg, png }

    struct Rejection: Error, Equatable {
        let reason: String
    }

    /// Folders are not photos, nor files skipped: a folder's subfolders are not entered.
    static let folderReason = "a folder"

    static func kind(ofFileAt path: String) -> Result<Kind, Rejection> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(Rejection(reason: reason(forOpenError: errno, path: path))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Rejection(reason: "cannot be read")) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(Rejection(reason: describe(mode: info.st_mode))) }
        var head = [UInt8](repeating: 0, count: 8)
        var count = 0
        while count < head.count {
            let got = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return .failure(Rejection(reason: "cannot be read")) }
            if got == 0 { break }
            count += got
        }
        let bytes = Array(head.prefix(count))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .success(.jpeg) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .success(.png) }
        return .failure(Rejection(reason: bytes.isEmpty ? "empty" : "not a JPEG or PNG"))
    }

    private static func reason(forOpenError code: Int32, path: String) -> String {
        switch code {
        case ELOOP: return "a symbolic link loop"
        case ENOENT: return "a broken link"
        case EACCES, EPERM: return "cannot be read (permission denied)"
        case ENXIO:
            var info = stat()
            if stat(path, &info) == 0 { return describe(mode: info.st_mode) }
            return "cannot be read"
        default: return "cannot be read"
        }
    }

    private static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a named pipe, not a photo"
        case S_IFSOCK: "a socket, not a photo"
        case S_IFCHR, S_IFBLK: "a device, not a photo"
        case S_IFDIR: folderReason
        default: "not a regular file"
        }
    }
}

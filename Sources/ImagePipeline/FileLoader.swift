#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file with plain POSIX calls and turns every failure into an ImageError.
///
/// Opened non-blocking: a named pipe (or a device) in a photo folder would otherwise block
/// `open` until a writer came, hanging a worker forever; such files are refused instead.
enum FileLoader {
    static func read(_ path: String) throws(ImageError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT ? .missing(path: path) : .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw .empty(path: path) }
        guard size <= ImageLimits.maximumFileBytes else { throw .unreadable(path: path, reason: "file of \(size >> 20) MB is over the 256 MB limit") }
        var data = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, size - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .unreadable(path: path, reason: count == 0 ? "file shrank while reading" : String(cString: strerror(errno))) }
            offset += count
        }
        return data
    }
}

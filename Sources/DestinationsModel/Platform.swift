import CoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of DestinationsModel, in one place: what ``PhotoSniffer`` needs
/// to look at a file without ever blocking on it. No other file of the target imports libc.
enum Platform {
    /// What kind of file a path or descriptor is.
    enum FileType { case regular, fifo, socket, device, directory, other }

    /// Why an open failed.
    enum OpenFailure: Error { case loop, missing, denied, noReader, other }

    /// The type of the file `path` names, links followed (the kernel gives up after 40:
    /// a loop fails with `.loop`), without opening it.
    static func typeWithoutOpening(_ path: String) -> Result<FileType, OpenFailure> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(failure(errno)) }
        return .success(fileType(mode: info.st_mode))
    }

    private static func failure(_ code: Int32) -> OpenFailure {
        switch code {
        case ELOOP: .loop
        case ENOENT: .missing
        case EACCES, EPERM: .denied
        case ENXIO: .noReader
        default: .other
        }
    }

    /// Opens `path` read-only without blocking (a FIFO opens at once), following links as
    /// the kernel does (a loop fails with `.loop`).
    static func openNonBlocking(_ path: String) -> Result<Int32, OpenFailure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        return descriptor >= 0 ? .success(descriptor) : .failure(failure(errno))
    }

    static func close(_ descriptor: Int32) { FileDescriptor.close(descriptor) }

    /// The type of the open file, nil when `fstat` fails.
    static func fileType(of descriptor: Int32) -> FileType? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return fileType(mode: info.st_mode)
    }

    /// The type of the file at `path` (links followed), nil when `stat` fails.
    static func fileType(atPath path: String) -> FileType? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return fileType(mode: info.st_mode)
    }

    private static func fileType(mode: mode_t) -> FileType {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFCHR, S_IFBLK: .device
        case S_IFDIR: .directory
        default: .other
        }
    }

    /// Up to `count` bytes from the start of the open file (fewer at its end); nil on a
    /// read error. Interrupted reads are retried.
    static func readHead(_ descriptor: Int32, count: Int) -> [UInt8]? {
        var head = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return nil }
            if got == 0 { break }
            filled += got
        }
        return Array(head.prefix(filled))
    }
}

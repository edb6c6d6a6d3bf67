import ImagePipeline
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
    enum Kind { case jpeg, png, webp, gif }

    struct Rejection: Error, Equatable {
        let reason: String
    }

    /// Folders are not photos, nor files skipped: a folder's subfolders are not entered.
    static let folderReason = "a folder"

    static func kind(ofFileAt path: String) -> Result<Kind, Rejection> {
        // Only regular files are opened: the type is asked first (links followed, loops
        // refused), and checked again on the open descriptor (the file may have been
        // replaced in between; the open never blocks either way).
        switch Platform.typeWithoutOpening(path) {
        case .success(.regular): break
        case .success(let type): return .failure(Rejection(reason: describe(type)))
        case .failure(let failure): return .failure(Rejection(reason: reason(for: failure, path: path)))
        }
        let descriptor: Int32
        switch Platform.openNonBlocking(path) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): return .failure(Rejection(reason: reason(for: failure, path: path)))
        }
        defer { Platform.close(descriptor) }
        guard let type = Platform.fileType(of: descriptor) else { return .failure(Rejection(reason: "cannot be read")) }
        guard type == .regular else { return .failure(Rejection(reason: describe(type))) }
        guard let bytes = Platform.readHead(descriptor, count: 12) else { return .failure(Rejection(reason: "cannot be read")) }
        switch ImageFormat(sniffing: bytes) {
        case .jpeg: return .success(.jpeg)
        case .png: return .success(.png)
        case .webp: return .success(.webp)
        case .gif: return .success(.gif)
        case nil: return .failure(Rejection(reason: bytes.isEmpty ? "empty" : "not a JPEG, PNG, WebP or GIF"))
        }
    }

    private static func reason(for failure: Platform.OpenFailure, path: String) -> String {
        switch failure {
        case .loop: "a symbolic link loop"
        case .missing: "a broken link"
        case .denied: "cannot be read (permission denied)"
        // A socket (or a FIFO without reader on some systems) refuses the open itself.
        case .noReader: Platform.fileType(atPath: path).map(describe) ?? "cannot be read"
        case .other: "cannot be read"
        }
    }

    private static func describe(_ type: Platform.FileType) -> String {
        switch type {
        case .fifo: "a named pipe, not a photo"
        case .socket: "a socket, not a photo"
        case .device: "a device, not a photo"
        case .directory: folderReason
        case .regular, .other: "not a regular file"
        }
    }
}

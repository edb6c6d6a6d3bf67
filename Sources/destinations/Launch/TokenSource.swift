import Foundation

/// Where the feed's token comes from (issue 43): `--token-file` (its first line), else
/// `--token`, which works but says that other users can read it in the process list (`ps`,
/// /proc/PID/cmdline), else `DESTINATIONS_TOKEN`.
enum TokenSource {
    static func token(flag: String?, file: String?) throws(AppError) -> String? {
        if let file { return try read(file) }
        if let flag {
            printError("destinations: warning: --token is visible to other users of this machine (ps); use --token-file FILE or DESTINATIONS_TOKEN")
            return flag.isEmpty ? nil : flag
        }
        return Platform.environment("DESTINATIONS_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first line of `path`, which only its owner may read (as ssh asks of a key).
    static func read(_ path: String) throws(AppError) -> String {
        // The file a link points to is the one whose mode counts (a link's own is 0777).
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target),
              let data = FileManager.default.contents(atPath: path) else {
            throw AppError(description: "--token-file \(path): cannot be read", status: 2)
        }
        if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw AppError(description: "--token-file \(path): others can read it (mode \(String(mode, radix: 8))); chmod 600 \(path)", status: 2)
        }
        guard data.count <= 64 << 10, let text = String(data: data, encoding: .utf8),
              let line = text.split(whereSeparator: \.isNewline).first.map({ $0.trimmingCharacters(in: .whitespaces) }), !line.isEmpty else {
            throw AppError(description: "--token-file \(path): no token on its first line", status: 2)
        }
        return line
    }
}

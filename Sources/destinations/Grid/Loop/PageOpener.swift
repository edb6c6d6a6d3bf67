import Foundation

/// `o` in the detail view: the status's web page in the person's browser through
/// `xdg-open` when there is a display to open it on, else where to paste it (a terminal
/// over SSH has no browser to start; toot and tut print the address too).
enum PageOpener {
    /// Starts `xdg-open url` (its output to /dev/null, not reaped here: Foundation's
    /// `Process` does that) and returns what to tell the person.
    static func open(_ url: String?, environment: [String: String]) -> String {
        guard let url else { return "this post has no web page" }
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        guard hasDisplay, let opener = executable("xdg-open", path: environment["PATH"] ?? "/usr/bin:/bin") else {
            return "no display to open it on — paste it into a browser: \(url)"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return "xdg-open could not start (\(error.localizedDescription)) — the page: \(url)"
        }
        return "opening in your browser: \(url)"
    }

    /// The first `name` on `path` that is an executable file.
    static func executable(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

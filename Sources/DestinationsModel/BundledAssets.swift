import Foundation

/// The bundled `Assets` folder (`catalog.json`, `photos/`, `placeholders.json`), for the app
/// and for `destinations-feed`, which serves the same posts.
public enum BundledAssets {
    /// `./Assets`; else, from the executable's folder up, the nearest `Assets` (a build
    /// folder sits inside the checkout) or `share/destinations` (an installed copy:
    /// `PREFIX/bin/destinations` reads `PREFIX/share/destinations`, as `make install` and the
    /// Debian package lay them out).
    public static var folder: URL {
        let fileManager = FileManager.default
        func hasCatalogue(_ url: URL) -> Bool { fileManager.fileExists(atPath: url.appendingPathComponent("catalog.json").path) }
        let here = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Assets")
        if hasCatalogue(here) { return here }
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<8 {
            for candidate in [directory.appendingPathComponent("Assets"), directory.appendingPathComponent("share/destinations")] where hasCatalogue(candidate) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return here
    }

    /// The running executable, its links resolved: `/proc/self/exe` (a command found on the
    /// `PATH` has no folder in `argv[0]`), else `argv[0]`.
    static var executable: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }
}

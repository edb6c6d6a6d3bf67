import Foundation

/// The bundled `Assets` folder (`catalog.json`, `photos/`, `placeholders.json`), for the app
/// and for `destinations-feed`, which serves the same posts.
public enum BundledAssets {
    /// `./Assets`, else the nearest `Assets` above the executable (the build folder sits
    /// inside the checkout).
    public static var folder: URL {
        let fileManager = FileManager.default
        func hasCatalogue(_ url: URL) -> Bool { fileManager.fileExists(atPath: url.appendingPathComponent("catalog.json").path) }
        let here = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Assets")
        if hasCatalogue(here) { return here }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            let candidate = directory.appendingPathComponent("Assets")
            if hasCatalogue(candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return here
    }
}

import FeedFormat
import Foundation
import TestSupport
import Testing

/// No byte from outside reaches the terminal unfiltered (issue 43): file names, folder
/// names, URLs, hosts a server redirects to and a server's own words, through every path the
/// app prints them on: the exit summary (text and JSON), the report file, and every message
/// on standard error.
@Suite struct HostileTextTests {
    /// What a terminal would act on, anywhere in `output` (line breaks and tabs aside).
    static func unsafe(in output: String) -> [String] {
        output.unicodeScalars.filter { $0 != "\n" && $0 != "\t" && PlainText.isUnsafe($0) }.map { "U+" + String($0.value, radix: 16) }
    }

    static let escapes = "\u{1B}]52;c;cm0gLXJmIH4vKg==\u{07}\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}gpj\u{E0041}"

    @Test func fileAndFolderNamesReachTheSummaryAsText() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-names-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("trip \(Self.escapes)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = AppProcess.root.appendingPathComponent("Assets/photos/blinds.jpg")
        try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent("sea \(Self.escapes).jpg"))
        try Data("not a photo".utf8).write(to: folder.appendingPathComponent("notes \(Self.escapes).txt"))
        let reportFile = root.appendingPathComponent("report.json").path
        for arguments in [["--report", "text"], ["--report", "json"], ["--report", "json", "--report-file", reportFile]] {
            let result = try AppProcess.run(["--photos", folder.path, "--scenario", "steady", "--duration", "0.5"] + arguments,
                                            environment: ["XDG_CACHE_HOME": root.appendingPathComponent("cache").path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.unsafe(in: result.stdout).isEmpty && Self.unsafe(in: result.stderr).isEmpty, "\(arguments): \(result.stdout.debugDescription)")
            if arguments.contains("text") { #expect(result.stdout.contains("notes ]52;c;"), "the name kept as text: \(result.stdout)") }
        }
        let written = try String(contentsOfFile: reportFile, encoding: .utf8)
        #expect(Self.unsafe(in: written).isEmpty && written.contains("skipped"))
        // The same names in an error: a folder that is not there.
        let missing = try AppProcess.run(["--photos", folder.path + "/gone \(Self.escapes)", "--scenario", "steady", "--duration", "0.5"])
        #expect(missing.status == 1 && missing.stderr.contains("gone ]52;c;"), "\(missing.stderr.debugDescription)")
        #expect(Self.unsafe(in: missing.stderr).isEmpty, "\(missing.stderr.debugDescription)")
    }

    @Test func aServersWordsAndRedirectsReachStandardErrorAsText() throws {
        let message = try JSONSerialization.data(withJSONObject: ["error": "denied \(Self.escapes)"])
        let server = try HostileServer(host: "127.0.0.1") { request in
            request.target.hasPrefix("/redirect")
                // A host whose percent-encoding decodes to escapes (what put text on the clipboard in tmux).
                ? .redirect(302, to: "http://%1B%5D52;c;cm0gLXJmIH4vKg==%07%1B%5D0;owned%07.invalid/api/v1/timelines/public")
                : HostileServer.Response(status: 403, headers: [("Content-Type", "application/json")], body: Array(message))
        }
        defer { server.stop() }
        for path in ["/redirect", "/api/v1/timelines/public/\(Self.escapes.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"] {
            let result = try AppProcess.run(["--feed", server.base + path, "--scenario", "steady", "--duration", "0.5"])
            #expect(result.status == 1, "\(path): \(result.stderr)")
            #expect(result.stderr.hasPrefix("destinations: "), "\(result.stderr.debugDescription)")
            #expect(Self.unsafe(in: result.stderr).isEmpty && Self.unsafe(in: result.stdout).isEmpty, "\(path): \(result.stderr.debugDescription)")
        }
        // A feed URL typed with escapes in it is quoted back as text too.
        let typed = try AppProcess.run(["--feed", "http://127.0.0.1:1/\(Self.escapes)", "--scenario", "steady", "--duration", "0.5"])
        #expect(typed.status != 0 && Self.unsafe(in: typed.stderr).isEmpty, "\(typed.stderr.debugDescription)")
        // And a bad flag's value, in ArgumentParser's own message.
        let flag = try AppProcess.run(["--refresh-rate", Self.escapes])
        #expect(flag.status == 2 && flag.stderr.contains("]0;owned"), "\(flag.stderr.debugDescription)")
        #expect(Self.unsafe(in: flag.stderr).isEmpty, "\(flag.stderr.debugDescription)")
    }
}

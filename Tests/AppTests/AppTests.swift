import Foundation
import Testing

@Suite(.serialized) struct HeadlessAppTests {
    @Test func headlessRunPrintsEveryReportField() throws {
        let result = try AppProcess.run(["scheduler", "--duration", "1", "--refresh-rate", "120", "--cell-cost", "12", "--report", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        for key in ["refresh_rate_hz", "prefetch", "cell_cost_ms", "duration_s", "frames", "hitches", "hitch_time_ms",
                    "hitch_ratio_ms_per_s", "band", "commit_ms", "cells_prepared_in_commit", "cells_prepared_idle"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["refresh_rate_hz"] as? Double == 120)
        #expect((json["frames"] as? Int ?? 0) > 0)
        #expect((json["duration_s"] as? Double ?? 0) >= 1)
        let commit = json["commit_ms"] as? [String: Double] ?? [:]
        #expect(Set(commit.keys) == ["p50", "p95", "p99", "max"])
        #expect((commit["p50"] ?? -1) >= 0 && (commit["p50"] ?? 0) <= (commit["max"] ?? 0))
    }

    @Test func prefetchOffPreparesInCommitAndHitchesAtThisCost() throws {
        // 12 ms per cell cannot fit an 8.3 ms commit: every new cell is a hitch. This is
        // the behaviour, not a timing: the work is longer than the deadline by 3.7 ms.
        let result = try AppProcess.run(["scheduler", "--duration", "1", "--refresh-rate", "120", "--cell-cost", "12", "--prefetch", "off", "--report", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect((json["hitches"] as? Int ?? 0) > 0)
        #expect(json["cells_prepared_idle"] as? Int == 0)
    }

    @Test func traceFileIsChromeTraceJSON() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try AppProcess.run(["scheduler", "--duration", "0.5", "--trace-file", path])
        #expect(result.status == 0)
        let trace = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        let events = trace["traceEvents"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["name"] as? String == "commit" })
    }

    @Test(arguments: [
        (["--refresh-rate", "500"], "outside 24–480 Hz"),
        (["--refresh-rate", "fast"], "not a number of hertz"),
        (["--prefetch", "maybe"], "'on' and 'off'"),
        (["--cell-cost=-3"], "--cell-cost must be between 0 and 1000 ms"),
        (["--duration", "0"], "--duration must be more than 0"),
        (["--report", "xml"], "'text' and 'json'"),
        (["--no-such-flag"], "Unknown option"),
    ])
    func badFlagsGiveAClearMessageAndExitCode2(arguments: [String], message: String) throws {
        let result = try AppProcess.run(["scheduler", "--duration", "1"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func noTerminalIsRefusedWithExitCode2() throws {
        for arguments in [[], ["grid"], ["scheduler"]] {
            let result = try AppProcess.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("standard output is not a terminal"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func helpExitsZero() throws {
        let result = try AppProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("grid") && result.stdout.contains("scheduler"))
        let scheduler = try AppProcess.run(["scheduler", "--help"])
        #expect(scheduler.status == 0 && scheduler.stdout.contains("--refresh-rate"))
    }
}

@Suite(.serialized) struct TerminalAppTests {
    @Test(arguments: ["xterm-256color", "xterm-direct", "screen", "linux"])
    func liveViewShowsFiguresReactsToKeysAndRestoresOnQuit(term: String) throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) scheduler --refresh-rate 120 --prefetch off", term: term)
        defer { tmux.stop() }
        let screen = try tmux.waitFor { $0.contains("hitches") && $0.contains("120 Hz") && $0.contains("prefetch off") }
        #expect(screen.contains("frame scheduler"), "screen:\n\(screen)")
        #expect(screen.contains("deadline 8.33 ms"))
        try tmux.keys("p")
        let toggled = try tmux.waitFor { $0.contains("prefetch on") }
        #expect(toggled.contains("prefetch on"))
        try tmux.keys("r")
        let slower = try tmux.waitFor { $0.contains("60 Hz") && $0.contains("deadline 16.67 ms") }
        #expect(slower.contains("deadline 16.67 ms"), "screen:\n\(slower)")
        try tmux.keys("q")
        let after = try tmux.waitFor { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"), "after quit:\n\(after)")
        #expect(after.contains("destinations: "), "summary printed on the normal screen")
        #expect(!after.contains("frame scheduler"), "the alternate screen is gone")
    }

    @Test func colouredOutputUnlessNoColor() throws {
        let coloured = Tmux()
        try coloured.start("\(AppProcess.binary.path) scheduler --prefetch off --refresh-rate 120")
        defer { coloured.stop() }
        let screen = try coloured.waitFor(escapes: true) { $0.contains("critical") }
        #expect(screen.contains("\u{1B}[31m") || screen.contains("\u{1B}[38;5;1m"), "the critical band is red:\n\(screen.debugDescription)")
        let plain = Tmux()
        try plain.start("\(AppProcess.binary.path) scheduler --prefetch off --refresh-rate 120", environment: "NO_COLOR=1")
        defer { plain.stop() }
        let plainScreen = try plain.waitFor(escapes: true) { $0.contains("critical") }
        #expect(!plainScreen.contains("\u{1B}[31m") && !plainScreen.contains("\u{1B}[38;5;1m"))
    }

    @Test func directColourTerminalsGet24BitColour() throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) scheduler --prefetch off --refresh-rate 120", term: "xterm-direct")
        defer { tmux.stop() }
        let screen = try tmux.waitFor(escapes: true) { $0.contains("critical") }
        #expect(screen.contains("\u{1B}[38;2;205;0;0m"), "24-bit red for the critical band:\n\(screen.debugDescription)")
    }

    @Test func sigtermRestoresTheTerminalAndExits143() throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) scheduler")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("hitches") }
        let app = try #require(try tmux.appPID())
        kill(app, SIGTERM)
        let after = try tmux.waitFor { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=143"), "after SIGTERM:\n\(after)")
        #expect(!after.contains("frame scheduler"))
    }

    @Test func closingTheTerminalEndsTheApp() throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) scheduler")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("hitches") }
        let app = try #require(try tmux.appPID())
        // Kill the shell that owns the pane and the server: the pty closes under the app.
        try tmux.run(["kill-server"], capturing: false)
        var exited = false
        for _ in 0..<100 where !exited {
            usleep(100_000)
            exited = kill(app, 0) != 0
        }
        #expect(exited, "the app kept running after its terminal went away")
    }

    @Test func tinyTerminalShowsAMessageUntilResized() throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) scheduler", columns: 40, rows: 8)
        defer { tmux.stop() }
        #expect(try tmux.waitFor { $0.contains("too small") }.contains("Terminal too small"))
        try tmux.run(["resize-window", "-t", tmux.session, "-x", "100", "-y", "30"])
        let resized = try tmux.waitFor { $0.contains("hitches") }
        let windows = try tmux.run(["list-windows"])
        #expect(resized.contains("frame scheduler"), "after resize:\n\(resized)\n\(windows)")
        try tmux.keys("q")
        #expect(try tmux.waitFor { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}

@Suite(.serialized) struct GridAppTests {
    @Test func theGridShowsPostsWithColouredThumbnailsScrollsAndQuits() throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) --latency 0", columns: 160, rows: 48)
        defer { tmux.stop() }
        let first = try tmux.waitFor { $0.contains("Cusco") && $0.contains("Saint Lucia") }
        #expect(first.contains("Peru") && first.contains("♥"), "screen:\n\(first)")
        let coloured = try tmux.waitFor(escapes: true) { $0.contains("\u{1B}[48;5;") }
        #expect(coloured.contains("\u{1B}[48;5;"), "thumbnails use the 256-colour palette")
        try tmux.keys("PageDown")
        let paged = try tmux.waitFor { !$0.contains("Cusco") }
        #expect(!paged.contains("Cusco") && paged.contains("♥"), "a page further:\n\(paged)")
        try tmux.keys("g")
        #expect(try tmux.waitFor { $0.contains("Cusco") }.contains("Cusco"))
        // Select Saint Lucia (second post) and like it twice: a reconfigure of one item.
        try tmux.keys("l", "L", "L")
        #expect(try tmux.waitFor { $0.contains("♥ 7966") }.contains("♥ 7966"))
        // Filter as you type: a new snapshot per keystroke.
        try tmux.keys("/", "l", "a", "k", "e")
        let filtered = try tmux.waitFor { $0.contains("filter: lake") && !$0.contains("Cusco") }
        #expect(filtered.contains("Lake Bled") && !filtered.contains("Saint Lucia"), "filtered:\n\(filtered)")
        try tmux.keys("Escape")
        #expect(try tmux.waitFor { $0.contains("Cusco") }.contains("Saint Lucia"))
        try tmux.keys("q")
        let after = try tmux.waitFor { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0") && after.contains("destinations: "), "after quit:\n\(after)")
    }

    @Test func syncImagesWithoutPrefetchRunAndSayWhatTheyAre() throws {
        let tmux = Tmux()
        try tmux.start("\(AppProcess.binary.path) --images sync --prefetch off --cell-cost 1", columns: 120, rows: 40)
        defer { tmux.stop() }
        let screen = try tmux.waitFor { $0.contains("Cusco") }
        #expect(screen.contains("prefetch off  images sync  cell cost 1.0 ms"), "header:\n\(screen)")
        try tmux.keys("q")
        #expect(try tmux.waitFor { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}

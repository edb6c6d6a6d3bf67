import ArgumentParser
import CoreKit
import RenderLoop

/// `destinations bench`: one scenario under every configuration, side by side, in one
/// process, headless; then the largest cell cost that stays hitch-free at 120 Hz.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a scenario at 60 and 120 Hz, prefetch off and on, images sync and async; search the hitch-free cell-cost headroom.",
        discussion: """
        Every run is headless (the real front presenting into a byte-counting sink). The headroom \
        search bisects --cell-cost at 120 Hz (images async) for prefetch off and on: a cost is \
        hitch-free when its run has no hitch. On the virtual clock (the default) each probe is \
        exact; on the real clock a run that hitches is repeated up to three times before the \
        cost is called too high.
        """)

    @Option(help: "The scenario every run replays.")
    var scenario: ScenarioKind = .fling

    @Option(help: ArgumentHelp("Seconds per run.", valueName: "seconds"))
    var duration: Double = 3

    @Option(help: ArgumentHelp("Number of posts.", valueName: "n"))
    var posts = 10_000

    @Option(help: "The scenario of the headroom search: steady (the seeds' case: a row arrives every so often) by default.")
    var headroomScenario: ScenarioKind = .steady

    @Option(help: ArgumentHelp("Seconds per probe of the headroom search.", valueName: "seconds"))
    var probeDuration: Double = 2

    @Option(help: ArgumentHelp("Bisection steps of the headroom search (each halves the interval; 0 skips it).", valueName: "n"))
    var searchSteps = 6

    @Option(help: ArgumentHelp("Upper end of the headroom search in ms.", valueName: "ms"))
    var maxCellCost: Double = 32

    @Option(help: "The headroom search's clock: virtual (in-process, cells cost exactly --cell-cost of virtual time and nothing else costs any, thumbnails arrive at seeded times: the scheduling's headroom, the same answer on every run and machine) or real (the front headless, workers and all: this machine's, which varies by a step from run to run).")
    var headroomClock: HeadroomClock = .virtual

    /// `--latency`, `--seed`, `--stress`: declared once, with the grid.
    @OptionGroup var simulation: SimulationFlags

    @Flag(help: "End with one line of JSON: the runs and the headroom.")
    var json = false

    func validate() throws {
        guard duration.isFinite, duration > 0, duration <= 600 else { throw ValidationError("--duration must be more than 0 and at most 600 seconds, got \(duration)") }
        guard probeDuration.isFinite, probeDuration > 0, probeDuration <= 600 else { throw ValidationError("--probe-duration must be more than 0 and at most 600 seconds, got \(probeDuration)") }
        guard (1...1_000_000).contains(posts) else { throw ValidationError("--posts must be between 1 and 1000000, got \(posts)") }
        guard (0...20).contains(searchSteps) else { throw ValidationError("--search-steps must be between 0 and 20, got \(searchSteps)") }
        guard maxCellCost.isFinite, maxCellCost > 0, maxCellCost <= 1000 else { throw ValidationError("--max-cell-cost must be more than 0 and at most 1000 ms, got \(maxCellCost)") }
    }

    func run() throws {
        var base = GridOptions()
        base.posts = posts
        base.latency = .milliseconds(simulation.latency)
        base.seed = simulation.seed
        base.scenario = scenario
        base.stress = simulation.stress
        func run(_ options: GridOptions) throws -> GridReport {
            let outcome = try GridLaunch.runInTerminal(options: options, headless: true)
            try TerminalLoop.checkSignal(outcome.stop)
            return outcome.report
        }
        print("scenario \(scenario.rawValue), \(posts) posts, \(fixed(duration, 1)) s per run, latency \(fixed(simulation.latency, 0)) ms, seed \(simulation.seed), stress \(simulation.stress) busy threads")
        print(Self.header)
        var reports: [GridReport] = []
        for rate in [RefreshRate.hz60, .hz120] {
            for prefetch in [false, true] {
                for images in [ImageMode.sync, .async] {
                    var options = base
                    options.refreshRate = rate
                    options.prefetch = prefetch
                    options.images = images
                    options.duration = .milliseconds(duration * 1000)
                    let report = try run(options)
                    reports.append(report)
                    print(Self.row(report))
                }
            }
        }
        var headroom: [Bool: Double] = [:]
        if searchSteps > 0 {
            for prefetch in [false, true] {
                headroom[prefetch] = try searchHeadroom(prefetch: prefetch) { cost in
                    var options = base
                    options.refreshRate = .hz120
                    options.prefetch = prefetch
                    options.cellCost = .milliseconds(cost)
                    options.scenario = headroomScenario
                    options.duration = .milliseconds(probeDuration * 1000)
                    return try headroomClock == .virtual ? VirtualRun.report(options) : run(options)
                }
            }
        }
        if json {
            let runs = reports.map { $0.json() }.joined(separator: ",")
            let search = searchSteps > 0
                ? ",\"headroom\":{\"refresh_rate_hz\":120,\"scenario\":\"\(headroomScenario.rawValue)\",\"clock\":\"\(headroomClock.rawValue)\",\"max_hitch_free_cell_cost_ms\":{\"prefetch_off\":\(fixed(headroom[false] ?? 0, 3)),\"prefetch_on\":\(fixed(headroom[true] ?? 0, 3))}}"
                : ""
            print("{\"scenario\":\"\(scenario.rawValue)\",\"runs\":[\(runs)]\(search)}")
        }
    }

    /// Bisects [0, max] for the largest hitch-free cost; prints each probe. A probe that
    /// hitches is run again, up to three times in all, before the cost is called too high:
    /// on a shared machine a preemption must not decide it, while a cost past the headroom
    /// hitches whenever new cells arrive, every time. (On the virtual clock once is enough.)
    private func searchHeadroom(prefetch: Bool, probe: (Double) throws -> GridReport) throws -> Double {
        let label = "headroom 120 Hz \(headroomScenario.rawValue) \(headroomClock.rawValue) clock prefetch \(prefetch ? "on " : "off")"
        return try Self.bisectHeadroom(maxCost: maxCellCost, steps: searchSteps, tries: headroomClock == .virtual ? 1 : 3,
                                       log: { print("\(label): \($0)") }, probe: { try probe($0).hitch.hitches })
    }

    /// The largest cost in [0, `maxCost`] whose probe reports no hitch, to within
    /// `maxCost / 2^steps`; a probe that hitches is tried up to `tries` times in all.
    static func bisectHeadroom(maxCost: Double, steps: Int, tries: Int, log: (String) -> Void = { _ in },
                               probe: (Double) throws -> Int) throws -> Double {
        func hitchFree(_ cost: Double) throws -> Bool {
            var counts: [Int] = []
            for _ in 0..<max(1, tries) {
                let hitches = try probe(cost)
                counts.append(hitches)
                if hitches == 0 { break }
            }
            log("cell cost \(fixed(cost, 2)) ms → hitches \(counts.map(String.init).joined(separator: ", then "))")
            return counts.last == 0
        }
        var good = 0.0, bad = maxCost
        guard try hitchFree(0) else { return 0 }
        for _ in 0..<steps {
            let cost = (good + bad) / 2
            if try hitchFree(cost) { good = cost } else { bad = cost }
        }
        log("largest hitch-free cell cost found \(fixed(good, 2)) ms (first failing \(fixed(bad, 2)) ms)")
        return good
    }

    static let header = "  Hz  prefetch  images  frames  hitches  ms/s     band      commit p50/p99/max ms   in commit  idle  placeholders  bytes/frame  scroll×"

    static func row(_ report: GridReport) -> String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        func left(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        let hitch = report.hitch
        return pad(fixed(report.refreshRateHz, 0), 4) + "  " + left(report.prefetch ? "on" : "off", 8) + "  " + left(report.images, 6)
            + pad("\(hitch.frames)", 8) + pad("\(hitch.hitches)", 9) + pad(fixed(hitch.hitchRatio, 2), 7) + "  " + left(hitch.band.rawValue, 9)
            + pad("\(fixed(hitch.commitP50.milliseconds, 2))/\(fixed(hitch.commitP99.milliseconds, 2))/\(fixed(hitch.commitMax.milliseconds, 2))", 23)
            + pad("\(report.cellsPreparedInCommit)", 12) + pad("\(report.cellsPreparedIdle)", 6) + pad(fixed(report.placeholderCellFramesPct, 1) + " %", 14)
            + pad(fixed(report.bytesPerFrame, 0), 13) + pad(fixed(report.scrollBytesRatio, 2), 9)
    }
}

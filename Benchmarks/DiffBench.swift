import CoreKit
import ArgumentParser
import DiffableData
import Foundation
import RenderLoop

/// This diff against Swift's `difference(from:).inferringMoves()` on the shared inputs,
/// interleaved in one run; the standard library runs in a child process under a watchdog
/// so a case it cannot finish in time is skipped, not waited for.
struct DiffBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "diff", abstract: "The diff benchmark of shared/bench/DIFF_INPUTS.md.")

    @Option(help: "Runs per contender (medians are reported).") var runs = 7
    @Option(help: "Seconds after which the standard library's diff is abandoned.") var stdlibTimeout: Double = 60
    @Option(help: "Stop repeating the standard library once its runs of one case add up to this many seconds.") var stdlibBudget: Double = 60
    @Option(parsing: .upToNextOption, help: "Cases to run.") var cases: [String] = DiffCase.names
    @Flag(help: "End with a JSON array, one object per case.") var json = false

    func run() throws {
        print("Diff benchmark (shared/bench/DIFF_INPUTS.md), release build, medians of \(runs) interleaved runs")
        print("case    items      ours_ms  snapshot_ms  stdlib_ms        ratio    moves    minimal  documented  checksum")
        var objects: [String] = []
        for name in cases {
            let input = DiffCase.make(name)
            guard input.checksumMatches else {
                throw ValidationError("case \(name): target checksum \(String(DiffCase.fnv1a(input.target), radix: 16)) differs from the shared file")
            }
            var ours: [Double] = []
            var stdlib: [Double] = []
            var stdlibSkipped: String?
            var moves = 0
            var stdlibSpent = 0.0
            let snapshots = (Self.snapshot(input.source), Self.snapshot(input.target))
            var snapshotTimes: [Double] = []
            for _ in 0..<runs {
                let (time, diff) = Measure.wall { ArrayDiff(from: input.source, to: input.target) }
                ours.append(time.milliseconds)
                moves = diff.moves.count
                let (snapshotTime, _) = Measure.wall { snapshots.0.changeset(to: snapshots.1) }
                snapshotTimes.append(snapshotTime.milliseconds)
                if stdlibSkipped == nil && stdlibSpent < stdlibBudget {
                    switch Self.stdlibOnce(case: name, timeout: stdlibTimeout) {
                    case .success(let ms):
                        stdlib.append(ms)
                        stdlibSpent += ms / 1000
                    case .failure(let reason):
                        stdlibSkipped = reason.text
                    }
                }
            }
            let check = ArrayDiff(from: input.source, to: input.target)
            precondition(check.apply(to: input.source) == input.target, "case \(name): applying our diff does not give the target")
            let minimal = Self.minimalMoves(input)
            let oursMedian = Measure.median(ours)
            let stdlibMedian = stdlib.isEmpty ? nil : Measure.median(stdlib)
            let ratio = stdlibMedian.map { $0 / oursMedian }
            let stdlibText = stdlibSkipped.map { "skipped (\($0))" } ?? "\(Measure.format(stdlibMedian ?? .nan)) (\(stdlib.count))"
            print("\(pad(name, 7)) \(pad("\(input.target.count)", 10)) \(pad(Measure.format(oursMedian, 3), 8)) \(pad(Measure.format(Measure.median(snapshotTimes), 3), 12)) \(pad(stdlibText, 16)) \(pad(ratio.map { Measure.format($0, 1) + "x" } ?? "-", 8)) \(pad("\(moves)", 8)) \(pad("\(minimal)", 8)) \(pad("\(input.documentedMinimalMoves)", 11)) ok")
            objects.append("{\"case\":\"\(name)\",\"items\":\(input.target.count),\"ours_ms\":\(Measure.json(oursMedian)),\"snapshot_ms\":\(Measure.json(Measure.median(snapshotTimes))),\"stdlib_ms\":\(Measure.json(stdlibMedian)),\"stdlib_runs\":\(stdlib.count),\"moves\":\(moves),\"minimal_moves\":\(minimal)}")
        }
        if cases.contains("iii") { reportPeakMemory() }
        if json { print("[" + objects.joined(separator: ",") + "]") }
    }

    func reportPeakMemory() {
        let input = DiffCase.make("iii")
        let before = Measure.statusMegabytes("VmRSS")
        Measure.resetPeakMemory()
        let diff = ArrayDiff(from: input.source, to: input.target)
        let peak = Measure.statusMegabytes("VmHWM")
        print("peak memory of our diff on (iii): +\(Measure.format(peak - before, 1)) MB over the inputs (\(diff.moves.count) moves)")
    }

    static func snapshot(_ items: [Int]) -> Snapshot<Int, Int> {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(items)
        return snapshot
    }

    /// n − LIS computed here with its own patience-sorting length count, apart from the diff.
    static func minimalMoves(_ input: DiffCase) -> Int {
        var position = [Int: Int](minimumCapacity: input.source.count)
        for (index, value) in input.source.enumerated() { position[value] = index }
        var tails: [Int] = []
        var kept = 0
        for value in input.target {
            guard let old = position[value] else { continue }
            kept += 1
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if tails[mid] < old { low = mid + 1 } else { high = mid }
            }
            if low == tails.count { tails.append(old) } else { tails[low] = old }
        }
        return kept - tails.count
    }

    struct Skip: Error { let text: String }

    /// One timed run of the standard library in a child process, killed after `timeout`.
    static func stdlibOnce(case name: String, timeout: Double) -> Result<Double, Skip> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0])
        process.arguments = ["stdlib-diff-once", name]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return .failure(Skip(text: "could not start: \(error)")) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return .failure(Skip(text: "over \(Int(timeout)) s"))
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let ms = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return .failure(Skip(text: "no result"))
        }
        return .success(ms)
    }
}

/// The child side of ``DiffBench/stdlibOnce(case:timeout:)``: prints milliseconds.
struct StdlibDiffOnce: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stdlib-diff-once", shouldDisplay: false)
    @Argument var name: String

    func run() {
        let input = DiffCase.make(name)
        let (time, difference) = Measure.wall { input.target.difference(from: input.source).inferringMoves() }
        precondition(input.source.applying(difference) == input.target)
        print(Measure.format(time.milliseconds, 3))
    }
}

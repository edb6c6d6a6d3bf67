import ArgumentParser

/// The simulated world every run of the grid takes (the grid and the benchmark), declared
/// once: the network's latency, the seed of the input and the network, and busy threads
/// beside the app.
struct SimulationFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Simulated network latency per image in ms, 0 to 10000 (jitter of up to half of it either way).", valueName: "ms"))
    var latency: Double = 80

    @Option(help: ArgumentHelp("Seed for the scenario's input and the simulated network.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Start this many busy threads at normal priority for the run (0 to 64): a loaded machine, reproducibly.", valueName: "n"))
    var stress = 0

    func validate() throws {
        guard latency.isFinite, (0...10_000).contains(latency) else { throw ValidationError("--latency must be between 0 and 10000 ms, got \(latency)") }
        guard (0...64).contains(stress) else { throw ValidationError("--stress must be between 0 and 64 threads, got \(stress)") }
    }
}

/// How long a loop runs and what each cell costs (the grid and the scheduler), declared
/// once. The cell cost's default is the command's: none for the grid, 12 ms for the
/// scheduler, whose point is to show what a costly cell does to a commit.
struct RunFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Extra synthetic work per cell configuration, 0 to 1000 ms (default: 0 for the grid, 12 for the scheduler).", valueName: "ms"))
    var cellCost: Double?

    @Option(help: ArgumentHelp("Stop after this many seconds, at most 86400 (default 5 for a scenario; required without a terminal).", valueName: "seconds"))
    var duration: Double?

    func validate() throws {
        if let cellCost, !(cellCost.isFinite && (0...1000).contains(cellCost)) {
            throw ValidationError("--cell-cost must be between 0 and 1000 ms, got \(cellCost)")
        }
        if let duration, !(duration.isFinite && duration > 0 && duration <= 86_400) {
            throw ValidationError("--duration must be more than 0 and at most 86400 seconds, got \(duration)")
        }
    }
}

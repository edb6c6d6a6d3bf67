import ArgumentParser

/// `destinations-bench`: the micro-benchmarks behind BENCHMARKS.md (release builds only).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "destinations-bench",
        abstract: "Benchmarks of the frame scheduler and the diff; results go to BENCHMARKS.md.",
        subcommands: [TickBench.self, SixelBench.self, KittyBench.self, ApplyBench.self, DiffBench.self, ImageBench.self, CollectionBench.self, RangeBench.self, LockBench.self, PoolBench.self, ShowImage.self, StdlibDiffOnce.self]
    )
}

BenchCommand.main()

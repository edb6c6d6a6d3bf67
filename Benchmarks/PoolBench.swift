import ArgumentParser
import Foundation
import ImagePipeline

/// Thumbnails per second through the app's own path (AssetStore: transfer pool, decoding
/// pool, cache, mailbox) with the main thread idle, for each worker priority and pool size:
/// lowering the workers' priority must not cost throughput when nothing else runs.
struct PoolBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pool", abstract: "Thumbnail throughput by worker priority and pool size.")

    @Option(help: "Thumbnails per round (distinct crops of one photo, so nothing is cached).")
    var thumbnails = 120

    @Option(help: "Rounds per configuration (median and worst are reported).")
    var rounds = 5

    @Option(help: "Photo to prepare.")
    var photo = "Assets/photos/blinds.jpg"

    func run() throws {
        guard FileManager.default.fileExists(atPath: photo) else { throw ValidationError("no photo at \(photo)") }
        print("thumbnails/s (40×12, \(thumbnails) distinct crops, \(rounds) rounds; median / worst), main thread idle")
        for workers in [1, 2] {
            for priority in WorkerPriority.allCases {
                var rates: [Double] = []
                for round in 0..<rounds {
                    rates.append(Self.throughput(photo: photo, count: thumbnails, offset: round, workers: workers, priority: priority))
                }
                print("\(workers) worker\(workers == 1 ? " " : "s") \(priority.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(Measure.format(Measure.median(rates), 1)) / \(Measure.format(rates.min() ?? .nan, 1))")
            }
        }
    }

    static func throughput(photo: String, count: Int, offset: Int, workers: Int, priority: WorkerPriority) -> Double {
        let store = AssetStore(source: SimulatedNetworkSource(latency: .zero, jitter: .zero), cacheLimit: 256 << 20,
                               workers: workers, priority: priority, transfers: 4, colorMode: .truecolor)
        var done = 0
        let (time, _) = Measure.wall {
            for index in 0..<count {
                let window = CropWindow(x: Double(index % 12) * 0.05, y: Double((index / 12) % 10) * 0.03 + Double(offset) * 0.001, width: 0.4, height: 0.6)
                _ = store.download(PreparedImageKey(asset: AssetID(path: photo, window: window), columns: 40, rows: 12)) { _ in done += 1 }
            }
            while done < count {
                store.deliverCompletions()
                usleep(500)
            }
        }
        return Double(count) / (time.milliseconds / 1000)
    }
}

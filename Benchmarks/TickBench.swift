import CoreKit
import ArgumentParser
import RenderLoop

/// Real-clock tick accuracy: how late frames start against their vsync, and the CPU the
/// loop burns while it has nothing to do, per refresh rate and sleep strategy.
struct TickBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ticks", abstract: "Frame-start lateness and idle CPU of the real-clock loop.")

    @Option(help: "Seconds per configuration.") var seconds: Double = 10
    @Option(help: "Spin margins (µs) of the hybrid strategy to compare.") var spin: [Int] = [250, 1000]

    final class IdleFrames: FrameDelegate {
        func commit(_ frame: FrameInfo) {}
    }

    func run() throws {
        let strategies = [SleepStrategy.absolute] + spin.map { .hybrid(spin: .microseconds($0)) }
        print("Frame-start lateness (ms after the vsync tick) and CPU while idle, \(Measure.format(seconds, 0)) s each; release build")
        print("rate     strategy                  frames   p50      p99      max      cpu%   hitches")
        var rows: [String] = []
        for rate in [RefreshRate.hz60, .hz120] {
            for strategy in strategies {
                let clock = MonotonicClock(strategy: strategy)
                let scheduler = FrameScheduler(refreshRate: rate, clock: clock, startingAt: clock.now + .milliseconds(20))
                let frames = Int(seconds * rate.hertz)
                let cpuBefore = Measure.cpuTime()
                let wallBefore = clock.now
                scheduler.run(frames: frames, IdleFrames())
                let cpu = (Measure.cpuTime() - cpuBefore) / (clock.now - wallBefore) * 100
                let lateness = scheduler.meter.records.map { ($0.commitStart - $0.tick).milliseconds }.sorted()
                let p50 = Measure.percentile(lateness, 0.5), p99 = Measure.percentile(lateness, 0.99), worst = lateness.last ?? .nan
                print("\(pad(rate.description, 8)) \(pad(strategy.description, 25)) \(pad("\(frames)", 8)) \(pad(Measure.format(p50, 3), 8)) \(pad(Measure.format(p99, 3), 8)) \(pad(Measure.format(worst, 3), 8)) \(pad(Measure.format(cpu, 1), 6)) \(scheduler.meter.hitches)")
                rows.append("{\"rate_hz\":\(rate.hertz),\"strategy\":\"\(strategy)\",\"frames\":\(frames),\"late_p50_ms\":\(Measure.json(p50)),\"late_p99_ms\":\(Measure.json(p99)),\"late_max_ms\":\(Measure.json(worst)),\"cpu_pct\":\(Measure.json(cpu))}")
            }
        }
        print("[" + rows.joined(separator: ",") + "]")
    }
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

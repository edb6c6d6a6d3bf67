import ArgumentParser
import CoreKit
import Dispatch
import Foundation
import Synchronization

/// The lock choice (DECISIONS.md, D-017): `Lock` (pthread) against `Synchronization.Mutex`
/// and `NSLock`, uncontended and with two threads fighting over one counter, in one run,
/// several rounds, median and worst.
struct LockBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "locks", abstract: "Lock and unlock cost: Lock (pthread), Mutex, NSLock.")

    @Option(help: "Lock/unlock pairs per thread per round.")
    var operations = 2_000_000

    @Option(help: "Rounds (median and worst are reported).")
    var rounds = 7

    func run() {
        print("ns per lock/unlock pair, \(rounds) rounds of \(operations) per thread (median / worst)")
        print("lock        1 thread        2 threads")
        var rows: [(String, Double, Double)] = []
        for (name, make) in Self.subjects {
            var single: [Double] = [], contended: [Double] = []
            for _ in 0..<rounds {
                single.append(Self.nanosecondsPerPair(make(), threads: 1, operations: operations))
                contended.append(Self.nanosecondsPerPair(make(), threads: 2, operations: operations))
            }
            let line = "\(name.padding(toLength: 10, withPad: " ", startingAt: 0))  "
                + "\(Measure.format(Measure.median(single))) / \(Measure.format(single.max() ?? .nan))".padding(toLength: 16, withPad: " ", startingAt: 0)
                + "\(Measure.format(Measure.median(contended))) / \(Measure.format(contended.max() ?? .nan))"
            print(line)
            rows.append((name, Measure.median(single), Measure.median(contended)))
        }
        if let lock = rows.first(where: { $0.0 == "Lock" }), let mutex = rows.first(where: { $0.0 == "Mutex" }) {
            print("Lock / Mutex: \(Measure.format(lock.1 / mutex.1)) uncontended, \(Measure.format(lock.2 / mutex.2)) contended")
        }
    }

    /// A counter behind each kind of lock, as one closure that increments it once.
    static let subjects: [(String, @Sendable () -> @Sendable () -> Void)] = [
        ("Lock", { let lock = Lock(0); return { lock.withLock { $0 += 1 } } }),
        ("Mutex", { let mutex = MutexBox(); return { mutex.increment() } }),
        ("NSLock", { let box = NSLockBox(); return { box.increment() } }),
    ]

    static func nanosecondsPerPair(_ increment: @escaping @Sendable () -> Void, threads: Int, operations: Int) -> Double {
        let (elapsed, _) = Measure.wall {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<operations { increment() }
            }
        }
        return Double(elapsed.nanoseconds) / Double(operations * threads)
    }
}

private final class MutexBox: Sendable {
    let mutex = Mutex(0)
    func increment() { mutex.withLock { $0 += 1 } }
}

private final class NSLockBox: @unchecked Sendable {
    let lock = NSLock()
    var value = 0
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
}

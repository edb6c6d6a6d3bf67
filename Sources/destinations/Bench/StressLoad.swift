import CoreKit
import Foundation

/// `--stress N`: N threads that burn CPU at normal priority for the whole run, so a loaded
/// machine is reproducible (the issue's `yes > /dev/null` per core, inside the process).
final class StressLoad: Sendable {
    let threads: Int
    private let running = Lock(true)

    /// Starts `threads` busy threads (none for 0).
    init(threads: Int) {
        self.threads = threads
        for index in 0..<threads {
            let thread = Thread { [running] in
                var spins: UInt64 = 0
                // Checks the flag every million spins: the lock is not what is measured.
                while true {
                    for _ in 0..<1_000_000 { spins &+= 1 }
                    if !running.withLock({ $0 }) { break }
                }
                _ = spins
            }
            thread.name = "stress \(index)"
            thread.start()
        }
    }

    func stop() { running.withLock { $0 = false } }

    deinit { stop() }
}

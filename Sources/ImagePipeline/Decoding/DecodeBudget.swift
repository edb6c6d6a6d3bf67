import CoreKit

/// The memory every decode of the process may hold at once (issue 43). A PNG of 12 KB may
/// claim 10,000 × 10,000 pixels (400 MB of RGBA); forty of them on two workers took the
/// process past 1.3 GB. Each decode reserves what it will allocate, from the header alone,
/// before a byte of pixels exists: one that would take more than ``capacity`` is refused
/// as too large, one that fits waits until the others' reservations leave room.
///
/// Workers only: the main thread never waits here (its one preparer, for `--images sync`,
/// has no budget).
public final class DecodeBudget: Sendable {
    /// What the image workers of the process share: enough for one 24-megapixel PNG (96 MB)
    /// beside a few thumbnails' decodes.
    public static let shared = DecodeBudget(bytes: 160 << 20)

    /// Bytes that may be held at once.
    public let capacity: Int
    private let held = Lock(0)
    /// Decodes that had to wait for room, so far.
    private let waited = Lock(0)

    /// A budget of `bytes`.
    public init(bytes: Int) {
        capacity = bytes
    }

    /// Bytes reserved now.
    public var reserved: Int { held.withLock { $0 } }
    /// Reservations that waited for others to finish.
    public var waits: Int { waited.withLock { $0 } }

    /// A hold on part of the budget, given back when it goes away.
    public final class Reservation: Sendable {
        private let budget: DecodeBudget
        let bytes: Int

        init(budget: DecodeBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        deinit { budget.held.withLock { $0 -= bytes } }
    }

    /// Reserves `bytes` for a decode of `path` (`width`×`height`, for the error), waiting while
    /// other decodes hold too much. More than ``capacity`` is `tooLarge` at once.
    public func reserve(_ bytes: Int, path: String, width: Int, height: Int) throws(ImageError) -> Reservation {
        guard bytes <= capacity else { throw .tooLarge(path: path, width: width, height: height) }
        var counted = false
        while true {
            let taken = held.withLock { held -> Bool in
                guard held + bytes <= capacity else { return false }
                held += bytes
                return true
            }
            if taken { return Reservation(budget: self, bytes: bytes) }
            if !counted {
                waited.withLock { $0 += 1 }
                counted = true
            }
            // A decode takes milliseconds; a worker that waits sleeps rather than spins.
            Platform.sleep(for: .milliseconds(1))
        }
    }
}

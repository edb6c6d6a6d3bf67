import CoreKit

/// How `destinations-feed` shapes the network it serves (the kernel here has no netem, so
/// the server is where latency, bandwidth and failures are made). Every random choice comes
/// from one seeded generator, so a run repeats.
public struct NetworkShape: Sendable, Hashable {
    /// Before each response's headers: `latency` ± half of it.
    public var latency: Duration = .zero
    /// Body bytes a second per response (nil: as fast as the socket takes them).
    public var bytesPerSecond: Int?
    /// Share of requests answered 500 (0...1).
    public var failRate = 0.0
    /// Bodies longer than this are cut after this many bytes and the connection dropped.
    public var resetAfter: Int?
    /// Share of requests that get their headers and then nothing (0...1), until the client
    /// gives up or `stallLimit` passes.
    public var stallRate = 0.0
    /// The longest a stalled response holds its connection.
    public var stallLimit: Duration = .seconds(120)
    /// Each media URL's first this many requests are answered 500, whatever the draws: a
    /// server that fails every photo once, for a run that must see each one asked again.
    public var failMediaFirst = 0
    /// A test's barrier: every media body, once started, waits until this many are in
    /// flight at once (or the server stops) before its first byte — so that transfers a
    /// client runs side by side overlap here at any speed, and ones it does not never do.
    public var holdMediaBodiesUntil: Int?
    /// The longest a body waits at that barrier: a test whose client never has that many
    /// transfers under way fails on what it sees rather than hangs.
    public static let mediaHoldLimit: Duration = .seconds(60)

    public init(latency: Duration = .zero, bytesPerSecond: Int? = nil, failRate: Double = 0, resetAfter: Int? = nil, stallRate: Double = 0) {
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
        self.failRate = failRate
        self.resetAfter = resetAfter
        self.stallRate = stallRate
    }

    /// What happens to one response.
    public enum Fate: Sendable, Hashable {
        case serve
        case fail
        case stall
    }
}

/// The seeded draws of a running server, shared by its connections.
final class ShapeDice: Sendable {
    private let generator: Lock<SplitMix64>

    /// Requests seen of each media path (only counted while ``NetworkShape/failMediaFirst`` is set).
    private let mediaRequests = Lock([String: Int]())

    init(seed: UInt64) { generator = Lock(SplitMix64(seed: seed)) }

    /// Whether this request of `path` is one of its first `shape.failMediaFirst`.
    func failsAsAFirstRequest(of path: String, _ shape: NetworkShape) -> Bool {
        guard shape.failMediaFirst > 0 else { return false }
        return mediaRequests.withLock { seen in
            seen[path, default: 0] += 1
            return seen[path]! <= shape.failMediaFirst
        }
    }

    /// A number in 0..<1.
    func uniform() -> Double {
        generator.withLock { Double($0.next() >> 11) / Double(1 << 53) }
    }

    /// The fate and the delay before the headers of the next response.
    func draw(_ shape: NetworkShape) -> (fate: NetworkShape.Fate, delay: Duration) {
        let fail = uniform(), stall = uniform(), jitter = uniform()
        let delay = shape.latency / 2 + shape.latency * jitter
        if fail < shape.failRate { return (.fail, delay) }
        if stall < shape.stallRate { return (.stall, delay) }
        return (.serve, delay)
    }
}

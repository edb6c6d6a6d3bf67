/// Pixel bytes at the pace the terminal parses them, measured by asking it: a frame that
/// carries pixels ends with Primary Device Attributes (`CSI c`), which a terminal answers
/// only after it has parsed every byte before it (issue 46). The time from handing the frame
/// over to reading the answer is what the terminal took for it, pixels, text and scroll.
///
/// ``OutputPacing`` learns from misses: it probes up until the terminal stops reading for a
/// tick, halves, and probes again, so a fling in xterm drawing sixel missed a few ticks every
/// run. A round trip says how long the parse took before anything is missed, so:
/// - one request at a time: no pixels go while an answer is awaited (``bytesForNextFrame(ceiling:)``
///   is 0), so the terminal is never handed a second batch of pixels while it parses the first;
/// - a batch parsed within ``target`` of a frame period, that used at least half of what it
///   was allowed, lets the next one be ``growth`` larger; a slower one scales the allowance
///   down by the ratio of the target to the time it took (not below one item: a frame
///   always sends its first). The time it took is the round trip less the shortest seen
///   (``shortest``): over ssh the network's delay is in every answer and is no parse.
///
/// The allowance is in the painter's cost units (bytes plus a price per image), so what is
/// learned is what the terminal's parse of this mix of text, pixels and images took, per
/// terminal and per run, not a constant. The price of an image is learned too, from the
/// same answers (``costs``, ``ParseCostModel``); until it is, the encoder's prior stands
/// (`PixelImage.costPerImage` in CellCanvas).
///
/// A terminal that does not answer within ``timeout`` loses the request (its late answer, if
/// it comes, is not mistaken for the next one's); after ``lossLimit`` losses in a row the
/// pacing gives up and the caller falls back to ``OutputPacing`` alone. Pure bookkeeping on
/// the caller's clock: ``NcursesBackend`` uses it in real time, tests in virtual time.
public struct ParsePacing: Sendable {
    /// The request appended to a frame: Primary Device Attributes.
    public static let request: [UInt8] = Array("\u{1B}[c".utf8)
    /// The share of a frame period a batch's parse may take.
    public static let target = 0.75
    /// Growth of the allowance after a batch parsed within the target.
    public static let growth = 1.25
    /// The first allowance, in cost units, before anything was measured (about four
    /// thumbnail strips with their image cost).
    public static let firstAllowance = 24 * 1024
    /// How long an answer is waited for before the request counts as lost.
    public static let timeout = Duration.seconds(1)
    /// Requests lost in a row after which the terminal is taken not to answer.
    public static let lossLimit = 3
    /// Round trips kept for the report's median and worst.
    public static let sampleLimit = 4096

    /// The request awaiting its answer: when it was handed over, the cost before it, and its
    /// pixel bytes and images.
    public private(set) var awaited: (sentAt: Duration, cost: Int, bytes: Int, images: Int)?
    /// Answers still owed to requests given up on (each is discarded when it comes).
    private var owed = 0
    private var lostInARow = 0
    /// What a batch may cost now, in cost units.
    public private(set) var allowance = Double(Self.firstAllowance)
    /// Requests answered, and lost (no answer within ``timeout``).
    public private(set) var answered = 0, lost = 0
    /// The terminal stopped answering (``lossLimit`` losses in a row): pace by misses only.
    public private(set) var hasGivenUp = false
    /// The shortest round trip so far: the delay no batch shortens.
    public private(set) var shortest: Duration?
    /// Round trips measured (at most ``sampleLimit``, the latest kept).
    public private(set) var roundTrips: [Duration] = []
    private var nextSample = 0
    /// What a byte and an image cost this terminal, fitted from the round trips.
    public private(set) var costs = ParseCostModel()

    /// Pacing that has measured nothing yet.
    public init() {}

    /// An answer is awaited: no pixels until it comes.
    public var isAwaiting: Bool { awaited != nil }

    /// Cost units the next frame may spend on pixels: 0 while an answer is awaited, else the
    /// allowance (at most `ceiling`, at least 1 so that the first item goes).
    public func bytesForNextFrame(ceiling: Int) -> Int {
        guard awaited == nil else { return 0 }
        return max(1, min(ceiling, Int(allowance)))
    }

    /// A frame whose pixels cost `cost` ended with ``request`` and was handed over at `time`;
    /// they were `bytes` bytes in `images` images (0 and 0: not known, not fitted).
    public mutating func requested(cost: Int, bytes: Int = 0, images: Int = 0, at time: Duration) {
        guard awaited == nil, !hasGivenUp else { return }
        awaited = (time, cost, bytes, images)
    }

    /// What an image costs this terminal beside its bytes, in bytes, once learned.
    public var imagePrice: Int? { costs.imagePrice }

    /// An answer was read at `time`; `period` is the frame period the loop runs at.
    public mutating func answered(at time: Duration, period: Duration) {
        if owed > 0 {
            owed -= 1
            return
        }
        guard let request = awaited else { return }
        awaited = nil
        lostInARow = 0
        answered += 1
        let took = max(time - request.sentAt, .microseconds(100))
        record(took)
        // What the terminal's parse took: the round trip less the shortest one seen, which
        // is the part no batch shortens (a network's delay over ssh, the read of the answer).
        let shortest = min(self.shortest ?? took, took)
        self.shortest = shortest
        // The first answer is not fitted: with nothing before it to compare, it is its own
        // shortest, and a stall there would pass for a batch's cost.
        if answered > 1, request.bytes > 0 || request.images > 0 {
            costs.add(bytes: request.bytes, images: request.images, roundTrip: took, shortest: shortest, period: period)
        }
        let parse = took - shortest
        let target = period * Self.target
        if parse <= target {
            if Double(request.cost) >= allowance / 2 { allowance *= Self.growth }
        } else {
            let scaled = Double(request.cost) * (target / parse)
            allowance = max(1, min(allowance, scaled))
        }
    }

    /// The answer awaited will not be read here (the terminal goes back to the shell: the
    /// app quits or is suspended): forgotten, neither lost nor owed.
    public mutating func forgetAwaited() {
        awaited = nil
        owed = 0
    }

    /// A request unanswered after ``timeout`` is lost at `time`; its answer, should it come,
    /// is discarded.
    public mutating func check(at time: Duration) {
        guard let request = awaited, time - request.sentAt > Self.timeout else { return }
        awaited = nil
        owed += 1
        lost += 1
        lostInARow += 1
        allowance = max(1, allowance / 2)
        if lostInARow >= Self.lossLimit { hasGivenUp = true }
    }

    private mutating func record(_ took: Duration) {
        if roundTrips.count < Self.sampleLimit {
            roundTrips.append(took)
        } else {
            roundTrips[nextSample] = took
            nextSample = (nextSample + 1) % Self.sampleLimit
        }
    }

    /// The median and the worst round trip kept, nil before the first answer.
    public var roundTripFigures: (median: Duration, worst: Duration)? {
        guard !roundTrips.isEmpty else { return nil }
        let sorted = roundTrips.sorted()
        return (sorted[(sorted.count - 1) / 2], sorted[sorted.count - 1])
    }
}

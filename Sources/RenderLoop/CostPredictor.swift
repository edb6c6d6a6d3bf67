/// Predicts the cost of the next piece of work of one kind from the last few measured.
///
/// The scheduler starts an idle job only when its predicted cost fits, so the predictor
/// is the whole of its foresight. A moving mean over a short window follows a workload
/// that changes (images arriving, a scroll speeding up) within a few frames while
/// smoothing single outliers.
public struct CostPredictor: Sendable {
    /// Samples averaged unless told otherwise.
    public static let defaultWindow = 8

    private var samples: [Duration] = []
    private var next = 0
    private var sum: Duration = .zero
    /// How many of the latest samples the estimate averages.
    public let window: Int

    /// A predictor over the last `window` samples.
    public init(window: Int = CostPredictor.defaultWindow) {
        precondition(window > 0, "CostPredictor needs a window of at least 1 sample, got \(window)")
        self.window = window
        samples.reserveCapacity(window)
    }

    /// The mean of the samples in the window, or nil before the first one.
    public var estimate: Duration? {
        samples.isEmpty ? nil : sum / samples.count
    }

    /// Samples recorded so far (the window keeps only the latest).
    public var sampleCount: Int { samples.count }

    /// Adds a measured cost.
    /// - Complexity: O(1).
    public mutating func record(_ cost: Duration) {
        if samples.count < window {
            samples.append(cost)
        } else {
            sum -= samples[next]
            samples[next] = cost
            next = (next + 1) % window
        }
        sum += cost
    }
}

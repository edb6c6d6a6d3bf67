/// How much CPU a pool's threads may take from the frame loop.
///
/// The frame loop has priority over everything else the process does, as the render
/// server has on iOS: decoding at the same priority took 77 % of both cores in a 120 Hz
/// fling and the main thread waited for a core. On Linux the nice value and the scheduling
/// policy are per thread, and lowering them needs no privilege.
public enum WorkerPriority: String, Sendable, CaseIterable {
    /// The same as the main thread.
    case normal
    /// Nice 10: about a tenth of the weight of a normal thread when both want a core, so
    /// the frame loop gets a core almost at once, yet thumbnails keep coming under load.
    case low
    /// `SCHED_IDLE`: only when a core would otherwise be idle. Under sustained load from
    /// other processes, thumbnails may stop arriving altogether.
    case idle
    /// The first thread of a pool `low`, the others `idle`: on a quiet machine the idle
    /// threads take every spare cycle and give way at once, and under load the low one
    /// keeps thumbnails coming.
    case mixed

    /// The default, chosen by measurement (DECISIONS.md, D-019).
    public static let recommended = WorkerPriority.mixed

    /// What thread `index` of a pool gets.
    public func forThread(_ index: Int) -> WorkerPriority {
        guard self == .mixed else { return self }
        return index == 0 ? .low : .idle
    }

    /// Applies to the calling thread only; returns false if the system refused.
    @discardableResult
    public func applyToCurrentThread() -> Bool {
        switch self {
        case .normal, .mixed: true
        case .low: Platform.setCurrentThreadNice(Self.lowNice)
        case .idle: Platform.setCurrentThreadIdleClass()
        }
    }

    /// The nice value of the calling thread.
    public static var currentThreadNice: Int32 { Platform.currentThreadNice }

    /// The nice value of `low`.
    static let lowNice: Int32 = 10
}

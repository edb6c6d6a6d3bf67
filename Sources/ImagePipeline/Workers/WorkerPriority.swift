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
    /// Every thread `idle`, plus as many rescue threads at nice 7 that take jobs only while
    /// the idle threads are starved by other work (`WorkerPool`; D-038, D-055): on a quiet
    /// machine nothing of the pool ever competes with the frame loop, and under load
    /// thumbnails keep coming.
    case idleWithRescue = "idle-rescue"

    /// The default, chosen by measurement (DECISIONS.md, D-019, D-038).
    public static let recommended = WorkerPriority.idleWithRescue

    /// What thread `index` of a pool gets.
    public func forThread(_ index: Int) -> WorkerPriority {
        switch self {
        case .mixed: index == 0 ? .low : .idle
        case .idleWithRescue: .idle
        default: self
        }
    }

    /// Whether a pool of this priority has rescue threads (they run at nice 7).
    public var hasRescue: Bool { self == .idleWithRescue }

    /// For threads that mostly wait (transfers): `mixed` where the pool's threads are all
    /// `idle` but for a rescuer, so a wait that ends under load is acted on by the one
    /// `low` thread. (All sixteen transfer threads at `low` doubled the quiet commit p99:
    /// their wake-ups took the frame loop's core.)
    public var forWaitingThreads: WorkerPriority { self == .idleWithRescue ? .mixed : self }

    /// Applies to the calling thread only; returns false if the system refused.
    @discardableResult
    public func applyToCurrentThread() -> Bool {
        switch self {
        case .normal, .mixed, .idleWithRescue: true
        case .low: Platform.setCurrentThreadNice(Self.lowNice)
        case .idle: Platform.setCurrentThreadIdleClass()
        }
    }

    /// The nice value of the calling thread.
    public static var currentThreadNice: Int32 { Platform.currentThreadNice }

    /// The nice value of `low`.
    static let lowNice: Int32 = 10

    /// The nice value of a pool's rescue threads. They run only while every core is taken by
    /// other work, where each nice-0 thread has its share. Over a feed with two cores busy
    /// (5 seeds, D-055): nice 10 (a tenth of a share) left 10.0 (17.1) % of cell-frames
    /// placeholders, commit p99 2.62 (4.45) ms; nice 5 (a third) 2.4 (3.7) %, 3.98 (4.46)
    /// ms; nice 7 (a fifth) 3.4 (4.1) %, 1.88 (4.07) ms, and the simulated network's fling
    /// under the same load 0 (1) hitches.
    static let rescueNice: Int32 = 7

    /// Sets the calling thread to a rescue thread's priority; returns false if refused.
    @discardableResult
    static func applyRescueToCurrentThread() -> Bool { Platform.setCurrentThreadNice(rescueNice) }
}

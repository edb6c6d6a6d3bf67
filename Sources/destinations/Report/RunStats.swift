/// What one frame showed and sent: all the run statistics need, so they never read the app.
struct FrameSample {
    /// Since the start of the run.
    var elapsed: Duration
    var visibleCells: Int
    var placeholderCells: Int
    /// Rows the grid moved by (at most the viewport's height: what was newly exposed).
    var scrolledRows: Int
    var bytes: Int
}

/// Per-frame figures the hitch meter does not keep: what was on screen and what it cost
/// to send, and memory along the run.
struct RunStats {
    let duration: Duration?
    var frames = 0
    var visibleCellFrames = 0
    var placeholderCellFrames = 0
    /// Frames in which the grid moved, the rows they exposed and the bytes they sent.
    var scrollFrames = 0
    var exposedRows = 0
    var scrollBytes = 0
    var firstFrameMs: Double?
    var residentAtFirstFrame = 0
    /// Resident memory half-way through a run with a duration (flat memory shows here).
    var residentHalfway: Int?
    /// The main thread's minor page faults after the first frame, and the frames since:
    /// a steady-state commit that allocates nothing faults about never.
    var faultsAfterFirstFrame: Int?
    var framesAfterFirstFrame = 0
    /// Filter keystroke → the frame that first shows its result (or a newer one), ms.
    var filterLatencies: [Double] = []
    /// Rest → every visible thumbnail whole, ms; rests that motion cut short first.
    var settleTimes: [Double] = []
    var interruptedRests = 0
    /// Over a feed: the images (their URLs) a visible cell or the detail view showed
    /// prepared at least once, for the report's `image_bytes_never_shown`.
    var shownImages = Set<String>()
    /// Interrupted rests by what their last frame still waited for: visible placeholders,
    /// pixel rows held back by the byte budget, or bytes the terminal had not taken.
    var interruptedRestsWaiting: [RestWait: Int] = [:]
    /// Frames after which the terminal still worked on what it was sent: the image workers
    /// run one thread fewer then and for a little after (D-083).
    var terminalBusyFrames = 0

    init(duration: Duration?) { self.duration = duration }

    mutating func note(_ sample: FrameSample) {
        frames += 1
        if firstFrameMs == nil {
            firstFrameMs = Launch.elapsedMilliseconds
            residentAtFirstFrame = Platform.residentBytes()
            faultsAfterFirstFrame = Platform.minorFaultsOfThisThread()
        } else {
            framesAfterFirstFrame += 1
        }
        if residentHalfway == nil, let duration, sample.elapsed >= duration / 2 { residentHalfway = Platform.residentBytes() }
        visibleCellFrames += sample.visibleCells
        placeholderCellFrames += sample.placeholderCells
        if sample.scrolledRows > 0 {
            scrollFrames += 1
            exposedRows += sample.scrolledRows
            scrollBytes += sample.bytes
        }
    }

    /// The main thread's minor page faults per frame since the first frame.
    var minorFaultsPerFrame: Double {
        guard let start = faultsAfterFirstFrame, framesAfterFirstFrame > 0 else { return 0 }
        return Double(Platform.minorFaultsOfThisThread() - start) / Double(framesAfterFirstFrame)
    }

    var placeholderPercent: Double { visibleCellFrames > 0 ? 100 * Double(placeholderCellFrames) / Double(visibleCellFrames) : 0 }
}

/// When the process started, for the first-frame time: `mark()` is the first thing main does.
enum Launch {
    private static let start = ContinuousClock.now

    static func mark() { _ = start }

    /// Milliseconds since `mark()`.
    static var elapsedMilliseconds: Double { (ContinuousClock.now - start).milliseconds }
}

/// What a rest (the grid still after motion) waits for before it is settled, in the order
/// a person sees it: thumbnails still placeholders, pixel rows held back by the byte budget,
/// or bytes the terminal has not taken yet.
enum RestWait: String, CaseIterable, Sendable {
    case placeholders, pixels, terminal
}

import CellCanvas
import CoreKit
import Foundation

/// The real terminal through ncurses: a ``TerminalSession`` and its ``CanvasPresenter``.
public final class NcursesBackend: TerminalBackend, TerminalImageOutput, TerminalOutputFlow {
    /// The terminal session (ncurses, the writer, the start-up probe's answers).
    public let session: TerminalSession
    private let presenter: CanvasPresenter

    private init(session: TerminalSession) {
        self.session = session
        presenter = CanvasPresenter(session: session)
    }

    /// Takes over the terminal on standard input and output; `delivery` says who writes to it.
    public static func start(delivery: TerminalWriter.Delivery = .recommended) throws(TerminalError) -> NcursesBackend {
        let session = TerminalSession()
        session.delivery = delivery
        try session.start()
        let backend = NcursesBackend(session: session)
        backend.presenter.drawsLinks = Hyperlinks.isSupported(environment: ProcessInfo.processInfo.environment)
        return backend
    }

    /// ncurses writing into /dev/null at a fixed size, its bytes still counted.
    public static func startHeadless(rows: Int, columns: Int) throws(TerminalError) -> NcursesBackend {
        let session = TerminalSession()
        try session.startHeadless(rows: rows, columns: columns)
        return NcursesBackend(session: session)
    }

    public var size: (rows: Int, columns: Int) { session.size }
    public var traits: TerminalTraits {
        TerminalTraits(capability: capability, supportsSynchronizedOutput: supportsSynchronizedOutput, probed: probed, isHeadless: isHeadless)
    }
    /// Its own pixel and image output.
    public var imageOutput: any TerminalImageOutput { self }
    /// Its own output flow (the writer and the measured rate).
    public var outputFlow: any TerminalOutputFlow { self }
    public var capability: ColorCapability { session.capability }
    public var supportsSynchronizedOutput: Bool { session.supportsSynchronizedOutput }
    public var probed: TerminalProbe.Answers { session.probed }
    public var isHeadless: Bool { session.isHeadless }
    public func nextKey() -> Key? {
        defer { takeParseAnswers(at: frameTime()) }
        return session.nextKey()
    }
    public func waitForInput(wake: WakeSignal?, timeout: Duration?) -> Bool {
        let ready = session.waitForInput(wake: wake, timeout: timeout)
        if ready && parsePacing.isAwaiting {
            session.readInputAhead()
            takeParseAnswers(at: frameTime())
        }
        return ready
    }
    public func present(_ canvas: Canvas, scrolled: (rows: Range<Int>, by: Int)?) { presenter.present(canvas, scrolled: scrolled) }
    public func invalidate() { presenter.invalidate() }

    private var pacing = OutputPacing()
    /// Pixels at the pace the terminal parses them, where it answers for itself (D-078).
    private var parsePacing = ParsePacing()
    /// Answers to parse requests counted so far, and the frame period.
    private var answersTaken = 0, period = Duration.milliseconds(8)
    /// The last tick on the frame loop's clock, and when it was observed on the continuous
    /// clock: the frame loop's time of any later moment (`frameTime()`), for the calls
    /// that are not handed a clock.
    private var lastTick = (time: Duration.zero, at: ContinuousClock.now)
    private var pacesByParse: Bool { session.answersParseRequests && !parsePacing.hasGivenUp }
    /// The last ceiling the app planned optional bytes under (a miss cuts from there).
    private var optionalCeiling = Int.max
    private var writer: TerminalWriter { session.writer }
    /// Also while a parse request's answer is awaited: the terminal has taken the pixels but
    /// not yet shown them (a rest is settled once they are parsed, not once they are sent).
    public var isOutputBehind: Bool { writer.isBehind || presenter.hasCoalescedFrame || parsePacing.isAwaiting }

    public func observeOutput(at time: Duration) -> Bool {
        lastTick = (time, .now)
        parsePacing.check(at: time)
        writer.pump()
        let behind = writer.isBehind
        pacing.observe(at: time, bytesTaken: writer.bytesTaken, behind: behind, ceiling: optionalCeiling, moreToSend: presenter.hasPixelsHeldForBudget)
        return behind
    }

    public func noteOptionalBytesHeldBack() { pacing.noteHeldBack() }

    /// Hands the terminal what it takes until `deadline`; meanwhile an answer to a parse
    /// request is read as soon as it comes (keys read with it wait for the next frame).
    public func waitForOutput(until deadline: Duration, now: () -> Duration) {
        writer.wait(until: deadline, now: now)
        while parsePacing.isAwaiting {
            let left = deadline - now()
            guard left > .zero else { return }
            let milliseconds = Int32(min(max((left.nanoseconds + 999_999) / 1_000_000, 1), 1000))
            guard let ready = Platform.poll([Platform.standardInput], milliseconds: milliseconds), !ready.hungUp else { return }
            session.readInputAhead()
            takeParseAnswers(at: now())
        }
    }

    /// Now on the frame loop's clock.
    private func frameTime() -> Duration { lastTick.time + (ContinuousClock.now - lastTick.at) }

    /// Answers the session took out of the input since the last call, read at `time`.
    private func takeParseAnswers(at time: Duration) {
        let answers = session.deviceAttributesAnswers
        for _ in answersTaken..<answers { parsePacing.answered(at: time, period: period) }
        answersTaken = answers
    }

    /// Hands the committed frame over; a request it ends with is timed from here.
    public func deliverOutput() {
        writer.pump()
        if let receipt = presenter.takeReceipt() {
            parsePacing.requested(cost: receipt.cost, bytes: receipt.bytes, images: receipt.images, at: frameTime())
        }
    }

    /// Misses pace what a frame may add (``OutputPacing``); where the terminal answers parse
    /// requests, also one batch of pixels at a time, no larger than it was seen to parse
    /// within a frame (``ParsePacing``).
    public func optionalBytesPerFrame(hertz: Double, ceiling: Int) -> Int {
        optionalCeiling = ceiling
        period = .seconds(1 / hertz)
        presenter.asksForParseReceipt = pacesByParse && !parsePacing.isAwaiting
        presenter.imagePrice = pacesByParse ? parsePacing.imagePrice : nil
        // Not behind: nothing is pending.
        if writer.isBehind { return 0 }
        let byRate = pacing.optionalBytesPerFrame(hertz: hertz, ceiling: ceiling, pending: 0)
        // Both: the answers say what the terminal parses, the rate what the link carries
        // (a terminal behind a slow link answers each batch quickly while text fills it).
        if pacesByParse { return min(byRate, parsePacing.bytesForNextFrame(ceiling: .max)) }
        return byRate
    }

    public var outputStatistics: OutputStatistics {
        var statistics = OutputStatistics()
        statistics.coalescedFrames = presenter.coalescedFrames
        statistics.pendingBytesMax = writer.pendingBytesMax
        statistics.colorPairRounds = presenter.pairRecyclingRounds
        statistics.recycledColorPairs = presenter.recycledPairs
        statistics.approximatedCells = presenter.approximatedCells
        statistics.drainMedian = pacing.medianRate
        statistics.drainMinimum = pacing.minimumRate
        statistics.drainSamples = pacing.sampleCount
        statistics.parseAnswers = parsePacing.answered
        (statistics.wholePicturesSent, statistics.pixelStripsSent) = presenter.pixelImagesSent
        statistics.parseRequestsLost = parsePacing.lost
        (statistics.parseRoundTripMedian, statistics.parseRoundTripWorst) = (parsePacing.roundTripFigures?.median, parsePacing.roundTripFigures?.worst)
        (statistics.imagePrice, statistics.batchesFitted) = (pacesByParse ? parsePacing.imagePrice : nil, parsePacing.costs.batches)
        (statistics.imagePriceFitted, statistics.imagePriceError) = (parsePacing.costs.fittedPrice?.price, parsePacing.costs.fittedPrice?.error)
        return statistics
    }
    public func sendGraphics(_ bytes: [UInt8]) { presenter.sendGraphics(bytes) }
    public func enablePixelImages() { presenter.enablePixelImages() }
    public func updatePixelImages(defined: [PixelImage], forgotten: [UInt32]) { presenter.updatePixelImages(defined: defined, forgotten: forgotten) }
    public var pixelBytesPerFrame: Int {
        get { presenter.pixelBytesPerFrame }
        set { presenter.pixelBytesPerFrame = newValue }
    }
    public var hasDeferredPixels: Bool { presenter.hasDeferredPixels }
    public var isScrolling: Bool {
        get { presenter.isScrolling }
        set { presenter.isScrolling = newValue }
    }
    /// Images kept for pixel cells, and the image rows the last frame drew.
    public var pixelImageCount: Int { presenter.pixelImageCount }
    /// Image rows the last frame drew as pixels.
    public var pixelStripsInLastFrame: Int { presenter.pixelStripsInLastFrame }
    public var bytesInLastFrame: Int { presenter.bytesInLastFrame }
    /// Bytes all frames sent so far.
    public var bytesWritten: Int { presenter.bytesWritten }
    public func measureFullPaint(_ canvas: Canvas) -> Int { presenter.measureFullPaint(canvas) }
    public var isHungUp: Bool { session.isHungUp }
    public func end() {
        takeAwaitedAnswer()
        session.end()
    }
    public func suspend() {
        takeAwaitedAnswer()
        session.suspend()
        presenter.invalidate()
    }

    /// Before the terminal goes back to the shell: the answer to a request in flight is read
    /// here (at most ``answerWaitOnExit``), so that it never reaches the shell's input, and
    /// then forgotten.
    private func takeAwaitedAnswer() {
        guard parsePacing.isAwaiting else { return }
        // The request may still wait in the writer (a slow link): handed over first.
        let deadline = frameTime() + Self.answerWaitOnExit
        writer.wait(until: deadline, now: frameTime)
        while parsePacing.isAwaiting, !session.isHungUp {
            let left = deadline - frameTime()
            guard left > .zero,
                  let ready = Platform.poll([Platform.standardInput], milliseconds: Int32(max(1, left.nanoseconds / 1_000_000))),
                  !ready.hungUp else { break }
            session.readInputAhead()
            takeParseAnswers(at: frameTime())
        }
        parsePacing.forgetAwaited()
    }

    /// How long quitting or Ctrl-Z waits for a parse request's answer.
    static let answerWaitOnExit = Duration.milliseconds(200)
}

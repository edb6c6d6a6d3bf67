import CellCanvas
import Testing
@testable import TerminalFront
#if canImport(Glibc)
import Glibc
#endif

/// A pipe standing for a slow terminal: its write end non-blocking and small (one page),
/// so what the writer hands over and what waits is exact.
final class SlowTerminalPipe {
    let readEnd: Int32, writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Everything the pipe holds now.
    func readAll() -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return result }
            result += chunk[..<count]
        }
    }
}

/// A clock that moves 50 ms each time it is read: bounded waits end after a few reads.
final class SteppingClock {
    private(set) var time = Duration.zero
    func now() -> Duration {
        time += .milliseconds(50)
        return time
    }
}

@Suite struct TerminalWriterTests {
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

    /// Reads the pipe and pumps until nothing is pending (a writer thread writes on its own
    /// time; 10 s bounds a hang, it is not a timing).
    static func drain(_ writer: TerminalWriter, _ pipe: SlowTerminalPipe) -> [UInt8] {
        var received = pipe.readAll()
        let clock = ContinuousClock(), start = clock.now
        while writer.isBehind && clock.now - start < .seconds(10) {
            writer.pump()
            received += pipe.readAll()
            if writer.isBehind { usleep(200) }
        }
        return received + pipe.readAll()
    }

    @Test(arguments: TerminalWriter.Delivery.allCases)
    func whatTheTerminalCannotTakeWaitsAndArrivesWholeAndInOrder(delivery: TerminalWriter.Delivery) throws {
        let pipe = try SlowTerminalPipe()
        let writer = TerminalWriter(descriptor: pipe.writeEnd, delivery: delivery)
        let frame = Self.pattern(50_000)
        writer.enqueue(frame)
        #expect(writer.isBehind, "a one-page pipe cannot take 50,000 bytes at once")
        #expect(writer.bytesTaken + writer.pendingBytes <= frame.count)
        #expect(writer.pendingBytesMax >= writer.pendingBytes)

        let received = Self.drain(writer, pipe)
        #expect(!writer.isBehind)
        #expect(received == frame, "every byte, once, in order")
        #expect(writer.bytesTaken == frame.count)
    }

    @Test(arguments: TerminalWriter.Delivery.allCases)
    func framesQueuedBehindEachOtherKeepTheirOrder(delivery: TerminalWriter.Delivery) throws {
        let pipe = try SlowTerminalPipe()
        let writer = TerminalWriter(descriptor: pipe.writeEnd, delivery: delivery)
        let first = [UInt8](repeating: 1, count: 10_000), second = [UInt8](repeating: 2, count: 10_000)
        writer.enqueue(first)
        writer.enqueue(second)
        #expect(Self.drain(writer, pipe) == first + second)
    }

    @Test(arguments: TerminalWriter.Delivery.allCases)
    func finishingOnAStuckTerminalReturnsAndLeavesOnlyAPrefix(delivery: TerminalWriter.Delivery) throws {
        let pipe = try SlowTerminalPipe()
        let writer = TerminalWriter(descriptor: pipe.writeEnd, delivery: delivery)
        let frame = Self.pattern(30_000)
        writer.enqueue(frame)
        let clock = SteppingClock()
        writer.finish(until: .milliseconds(400), now: clock.now)
        #expect(!writer.isBehind, "what the terminal did not take by the deadline is dropped")
        let received = pipe.readAll()
        #expect(!received.isEmpty && received.count < frame.count)
        #expect(Array(frame[..<received.count]) == received, "never a byte out of order or invented")
    }

    /// With a writer thread the main thread only hands bytes over: a frame too large for
    /// the terminal leaves the enqueue at once, and the thread writes it as the terminal
    /// reads, while the main thread does nothing but wait.
    @Test func aWriterThreadWritesWhileTheMainThreadWaits() throws {
        let pipe = try SlowTerminalPipe()
        let writer = TerminalWriter(descriptor: pipe.writeEnd, delivery: .thread)
        let frame = Self.pattern(40_000)
        writer.enqueue(frame)
        var received: [UInt8] = []
        let clock = ContinuousClock(), start = clock.now
        while received.count < frame.count && clock.now - start < .seconds(10) {
            received += pipe.readAll()  // the terminal reads; nobody on this thread pumps
            usleep(200)
        }
        #expect(received == frame)
        writer.pump()
        #expect(!writer.isBehind && writer.bytesTaken == frame.count)
    }

    static func count(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard haystack.count >= needle.count else { return 0 }
        return (0...(haystack.count - needle.count)).count { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func aSinkTakesEverythingAtOnce() {
        let writer = TerminalWriter(descriptor: nil)
        writer.enqueue([UInt8](repeating: 7, count: 123_456))
        #expect(!writer.isBehind)
        #expect(writer.bytesTaken == 123_456)
    }

    @Test func aFrameAfterTheTerminalFellBehindIsCoalescedAndTheNextCarriesItsChanges() throws {
        setenv("TERM", "xterm-256color", 1)
        let pipe = try SlowTerminalPipe()
        let session = TerminalSession()
        try session.startHeadless(rows: 30, columns: 80)
        defer { session.end() }
        session.writeHeadlessFrames(to: pipe.writeEnd)
        let presenter = CanvasPresenter(session: session)
        // The terminal is already busy with 4,000 bytes: a full paint cannot go at once.
        let busy = [UInt8](repeating: 0x2E, count: 4000)
        #expect(busy.withUnsafeBytes { write(pipe.writeEnd, $0.baseAddress, $0.count) } == busy.count)

        presenter.present(PresenterTests.canvas(firstLine: 0))
        #expect(session.writer.isBehind, "a full paint of 30 coloured rows does not fit in what is left of a page")
        presenter.present(PresenterTests.canvas(firstLine: 1), scrolled: (1..<29, 1))
        presenter.present(PresenterTests.canvas(firstLine: 3), scrolled: (1..<29, 2))
        #expect(presenter.coalescedFrames == 2)
        #expect(presenter.hasCoalescedFrame)
        #expect(presenter.bytesInLastFrame == 0)

        var stream = pipe.readAll()
        while session.writer.isBehind {
            session.writer.pump()
            stream += pipe.readAll()
        }
        presenter.present(PresenterTests.canvas(firstLine: 3), scrolled: nil)
        #expect(!presenter.hasCoalescedFrame)
        while session.writer.isBehind {
            session.writer.pump()
            stream += pipe.readAll()
        }
        stream += pipe.readAll()
        stream.removeFirst(busy.count)
        #expect(PresenterTests.screenText(row: 1).hasPrefix("line 3 "), "the frame sent shows the latest canvas")
        #expect(Self.count(Array("\u{1B}[?2026h".utf8), in: stream) == 2, "two frames sent, not four")
        #expect(Self.count(Array("\u{1B}[?2026l".utf8), in: stream) == 2, "each closed")
        // The merged scroll moved the rows by three: the second frame is far smaller than a repaint.
        #expect(presenter.bytesInLastFrame < stream.count / 3)
    }
}

@Suite struct OutputPacingTests {
    /// Ticks every 10 ms; `taken(t)` is the running total at tick t.
    static func observe(_ pacing: inout OutputPacing, ticks: ClosedRange<Int>, behind: Bool, taken: (Int) -> Int) {
        for tick in ticks { pacing.observe(at: .milliseconds(tick * 10), bytesTaken: taken(tick), behind: behind) }
    }

    @Test func onlyTicksBehindAtBothEndsMeasureAndSamplesSpanAWindow() {
        var pacing = OutputPacing()
        // Keeping up: nothing is learnt of the rate.
        Self.observe(&pacing, ticks: 0...5, behind: false) { $0 * 5000 }
        #expect(pacing.sampleCount == 0)
        // Behind from tick 6 to 26, taking 100 KB/s in bursts of 2 KB every other tick.
        Self.observe(&pacing, ticks: 6...26, behind: true) { 30_000 + ($0 - 6) / 2 * 2000 }
        #expect(pacing.sampleCount == 2, "two windows of 100 ms")
        #expect(pacing.medianRate == 100_000 && pacing.minimumRate == 100_000, "bursts even out over a window")
        #expect(pacing.estimate == 100_000)
        // A short run (3 ticks behind, 20 ms between its ends) still counts when it ends.
        Self.observe(&pacing, ticks: 27...30, behind: false) { _ in 200_000 }
        Self.observe(&pacing, ticks: 31...33, behind: true) { 200_000 + ($0 - 31) * 500 }
        Self.observe(&pacing, ticks: 34...34, behind: false) { _ in 300_000 }
        #expect(pacing.sampleCount == 3)
        #expect(pacing.minimumRate == 50_000)
    }

    @Test func budgetsFollowTheEstimateWithAMarginAndNeverPassTheCeiling() {
        var pacing = OutputPacing()
        #expect(pacing.optionalBytesPerFrame(hertz: 100, ceiling: 6_000_000, pending: 0) == 10_000, "slow start: a sixth of the ceiling")
        for _ in 0..<40 { pacing.noteKeptUpWithMoreToSend() }
        #expect(pacing.optionalBytesPerFrame(hertz: 100, ceiling: 6_000_000, pending: 0) == 60_000, "the ceiling, 40 frames on")
        pacing.observe(at: .zero, bytesTaken: 0, behind: true)
        pacing.observe(at: .milliseconds(50), bytesTaken: 5_000, behind: true)
        pacing.observe(at: .milliseconds(100), bytesTaken: 10_000, behind: true)
        #expect(pacing.optionalBytesPerFrame(hertz: 100, ceiling: 6_000_000, pending: 0) == 800, "100 KB/s × 0.8 / 100 Hz")
        #expect(pacing.optionalBytesPerFrame(hertz: 100, ceiling: 6_000_000, pending: 500) == 300)
        #expect(pacing.optionalBytesPerFrame(hertz: 100, ceiling: 50_000, pending: 0) == 500)
        pacing.noteKeptUpWithMoreToSend()
        #expect(pacing.estimate == 104_000)
    }

    @Test func aMissedTickHalvesTheRateAndItClimbsBackBelowWhereItMissed() {
        var pacing = OutputPacing()
        let ceiling = 6_000_000
        for _ in 0..<40 { pacing.noteKeptUpWithMoreToSend() }  // past slow start, at the ceiling
        pacing.observe(at: .zero, bytesTaken: 0, behind: false, ceiling: ceiling)
        pacing.observe(at: .milliseconds(8), bytesTaken: 40_000, behind: true, ceiling: ceiling)
        pacing.observe(at: .milliseconds(16), bytesTaken: 80_000, behind: false, ceiling: ceiling)
        #expect(pacing.sampleCount == 0, "a single tick behind is no sample")
        #expect(pacing.allowance == 3_000_000, "but it halves what optional bytes may take")
        #expect(pacing.optionalBytesPerFrame(hertz: 120, ceiling: ceiling, pending: 0) == 25_000)
        for _ in 0..<200 { pacing.noteKeptUpWithMoreToSend() }
        let climbed = pacing.allowance ?? 0
        #expect(climbed > 0.6 * 6_000_000 && climbed < 0.6 * 6_000_000 * 1.16, "fast to 60 % of the missed level, slowly past it: \(climbed)")
        // A second miss halves from where it is.
        pacing.observe(at: .milliseconds(24), bytesTaken: 90_000, behind: true, ceiling: ceiling)
        #expect(abs((pacing.allowance ?? 0) - climbed / 2) < 1)
    }
}

extension OutputPacingTests {
    /// A fling over a slow link: the terminal falls behind again and again. The allowance
    /// stays above a sixteenth of the measured rate, a terminal that took everything always
    /// gets one item, and bytes held back make it grow.
    @Test func missesInARowNeverStarveOptionalBytes() {
        var pacing = OutputPacing()
        var time = Duration.zero, taken = 0
        // Measured at 40 KB/s while behind.
        for _ in 0..<30 {
            time += .milliseconds(10)
            taken += 400
            pacing.observe(at: time, bytesTaken: taken, behind: true)
        }
        let measured = pacing.estimate ?? 0
        #expect(abs(measured - 40_000) < 400)
        for _ in 0..<40 {
            time += .milliseconds(10)
            pacing.observe(at: time, bytesTaken: taken, behind: false)
            time += .milliseconds(10)
            taken += 100
            pacing.observe(at: time, bytesTaken: taken, behind: true)
        }
        #expect((pacing.allowance ?? 0) >= measured / 16 - 1, "40 misses in a row: \(pacing.allowance ?? 0) B/s")
        #expect(pacing.optionalBytesPerFrame(hertz: 120, ceiling: 16 << 20, pending: 0) >= 1)
        #expect(pacing.optionalBytesPerFrame(hertz: 120, ceiling: 16 << 20, pending: 10_000) == 0, "more waiting than a frame's share: nothing optional")
        let low = pacing.optionalBytesPerFrame(hertz: 120, ceiling: 16 << 20, pending: 0)
        for _ in 0..<60 { pacing.noteKeptUpWithMoreToSend() }
        #expect(pacing.optionalBytesPerFrame(hertz: 120, ceiling: 16 << 20, pending: 0) > low, "kept up with more to send: it grows")
    }
}

@Suite struct CoalescedScrollTests {
    @Test func scrollsOfCoalescedFramesAddUp() {
        var merged = CoalescedScroll()
        merged.add((1..<20, 2))
        merged.add(nil)
        merged.add((1..<20, 3))
        let hint = merged.take(with: (1..<20, -1))
        #expect(hint?.rows == 1..<20 && hint?.by == 4)
        #expect(merged.take(with: nil) == nil, "taken: empty again")
    }

    @Test func scrollsThatCancelOrDisagreeGiveNoHint() {
        var merged = CoalescedScroll()
        merged.add((1..<20, 2))
        #expect(merged.take(with: (1..<20, -2)) == nil)
        merged.add((1..<20, 2))
        merged.add((0..<20, 1))
        #expect(merged.take(with: nil) == nil, "different regions: the frame is compared whole")
        #expect(merged.take(with: (1..<20, 5))?.by == 5, "alone, a frame keeps its own hint")
    }
}

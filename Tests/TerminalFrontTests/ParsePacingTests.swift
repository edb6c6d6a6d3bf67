import CoreKit
import Testing
@testable import TerminalFront

/// Pixels at the pace the terminal parses them (issue 46): the round-trip bookkeeping, the
/// answers taken out of the keys, and a fling on the virtual clock against a terminal that
/// stops reading while it parses, paced by misses and by round trips.
struct ParsePacingTests {
    static let period = Duration.nanoseconds(8_333_333)

    @Test func nothingGoesWhileAnAnswerIsAwaited() {
        var pacing = ParsePacing()
        #expect(pacing.bytesForNextFrame(ceiling: .max) == ParsePacing.firstAllowance)
        pacing.requested(cost: 10_000, at: .milliseconds(100))
        #expect(pacing.isAwaiting)
        #expect(pacing.bytesForNextFrame(ceiling: .max) == 0)
        pacing.answered(at: .milliseconds(103), period: Self.period)
        #expect(!pacing.isAwaiting)
        #expect(pacing.roundTripFigures?.median == .milliseconds(3))
    }

    @Test func aBatchParsedWithinTheTargetLetsTheNextGrowASlowOneScalesItDown() {
        var pacing = ParsePacing()
        let first = Double(ParsePacing.firstAllowance)
        // Used most of the allowance, parsed in 3 ms of an 8.3 ms frame: grows.
        pacing.requested(cost: ParsePacing.firstAllowance, at: .zero)
        pacing.answered(at: .milliseconds(3), period: Self.period)
        #expect(pacing.allowance == first * ParsePacing.growth)
        // Used little of it: parsed fast says nothing about more, no growth.
        pacing.requested(cost: 1000, at: .milliseconds(10))
        pacing.answered(at: .milliseconds(11), period: Self.period)
        #expect(pacing.allowance == first * ParsePacing.growth)
        // 30,000 units took 25 ms, 24 beyond the shortest round trip (1 ms), almost four
        // times the frame's target of 6.25 ms: scaled by 6.25 / 24.
        pacing.requested(cost: 30_000, at: .milliseconds(20))
        pacing.answered(at: .milliseconds(45), period: Self.period)
        #expect(abs(pacing.allowance - 30_000 * 6.25 / 24) < 1)
        #expect(pacing.bytesForNextFrame(ceiling: 5000) == 5000)
    }

    /// Over ssh every answer carries the network's delay: the round trip less the shortest
    /// is what the terminal's parse took, so 50 ms of delay does not shrink the allowance.
    @Test func aDelayInEveryAnswerIsNotTakenForParsing() {
        var pacing = ParsePacing()
        var time = Duration.zero
        for _ in 0..<5 {
            let cost = Int(pacing.allowance)
            pacing.requested(cost: cost, at: time)
            time += .milliseconds(50) + .microseconds(Int64(cost / 20))  // 20 units a µs
            pacing.answered(at: time, period: Self.period)
        }
        #expect(pacing.shortest == .milliseconds(50) + .microseconds(Int64(ParsePacing.firstAllowance / 20)))
        #expect(pacing.allowance > Double(ParsePacing.firstAllowance) * 2, "\(pacing.allowance)")
        // A batch that took 25 ms more than the delay: scaled to the target.
        let cost = Int(pacing.allowance)
        pacing.requested(cost: cost, at: time)
        pacing.answered(at: time + pacing.shortest! + .milliseconds(25), period: Self.period)
        #expect(abs(pacing.allowance - Double(cost) * 6.25 / 25) < 1)
    }

    @Test func quittingForgetsTheAnswerAwaited() {
        var pacing = ParsePacing()
        pacing.requested(cost: 5000, at: .zero)
        pacing.forgetAwaited()
        #expect(!pacing.isAwaiting && pacing.lost == 0)
        pacing.requested(cost: 5000, at: .milliseconds(10))
        pacing.answered(at: .milliseconds(12), period: Self.period)
        #expect(pacing.answered == 1, "the next answer is the next request's")
    }

    @Test func aLostRequestsLateAnswerIsNotTakenForTheNextAndSilenceGivesUp() {
        var pacing = ParsePacing()
        pacing.requested(cost: 5000, at: .zero)
        pacing.check(at: .milliseconds(500))
        #expect(pacing.isAwaiting)
        pacing.check(at: .milliseconds(1001))
        #expect(!pacing.isAwaiting && pacing.lost == 1)
        pacing.requested(cost: 5000, at: .milliseconds(1100))
        // The first request's answer comes late: discarded, the second still awaited.
        pacing.answered(at: .milliseconds(1102), period: Self.period)
        #expect(pacing.isAwaiting && pacing.answered == 0)
        pacing.answered(at: .milliseconds(1104), period: Self.period)
        #expect(!pacing.isAwaiting && pacing.answered == 1 && pacing.roundTripFigures?.median == .milliseconds(4))
        for second in 2...4 {
            pacing.requested(cost: 5000, at: .seconds(second * 2))
            pacing.check(at: .seconds(second * 2 + 1) + .milliseconds(1))
        }
        #expect(pacing.hasGivenUp && pacing.lost == 4)
    }

    // MARK: The answers in the keys

    static func filtered(_ keys: [Key]) -> (keys: [Key], answers: Int) {
        var queue = keys, filter = ReplyFilter(), result: [Key] = []
        let source = { () -> Key? in queue.isEmpty ? nil : queue.removeFirst() }
        while let key = filter.next(from: source) { result.append(key) }
        return (result, filter.answers)
    }

    static func text(_ string: String) -> [Key] { string.map { .character($0) } }

    @Test func anAnswerIsTakenOutOfTheKeysAroundIt() {
        let answer = [Key.escape] + Self.text("[?63;1;2;4;6;9;15;22c")
        let (keys, answers) = Self.filtered(Self.text("j") + answer + Self.text("k") + answer + answer)
        #expect(keys == Self.text("jk"))
        #expect(answers == 3)
    }

    @Test func escapeAloneAndAltKeysStayKeys() {
        #expect(Self.filtered([.escape]) == ([.escape], 0))
        #expect(Self.filtered([.escape] + Self.text("j")) == ([.escape] + Self.text("j"), 0))
        #expect(Self.filtered([.escape] + Self.text("[?6x")) == ([.escape] + Self.text("[?6x"), 0))
        #expect(Self.filtered([.escape] + Self.text("[?c")) == ([.escape] + Self.text("[?c"), 0))
        #expect(Self.filtered([.escape, .escape] + Self.text("[?1c")) == ([.escape], 1))
        #expect(Self.filtered([.escape] + Self.text("[?62") + [.resize] + Self.text(";4c")) == ([], 1), "ncurses' resize key inside an answer")
    }

    @Test func anAnswerCutAcrossReadsIsHeldUntilItsEnd() {
        var filter = ReplyFilter()
        var queue: [Key] = [.escape] + Self.text("[?62;")
        let source = { () -> Key? in queue.isEmpty ? nil : queue.removeFirst() }
        #expect(filter.next(from: source) == nil)
        queue = Self.text("4c") + Self.text("q")
        #expect(filter.next(from: source) == .character("q"))
        #expect(filter.answers == 1)
        // Read ahead: the keys wait, the answers are counted at once.
        queue = Self.text("a") + [.escape] + Self.text("[?1c") + Self.text("b")
        filter.readAhead(from: source)
        #expect(filter.answers == 2 && filter.hasKeys)
        #expect(filter.next(from: source) == .character("a"))
        #expect(filter.next(from: source) == .character("b"))
        #expect(filter.next(from: source) == nil)
    }

    // MARK: A fling on the virtual clock

    /// A terminal that reads what the kernel holds a chunk at a time and parses each chunk
    /// before it reads again (xterm drawing sixel), answering `CSI c` when it gets to it.
    struct ParsingTerminal {
        /// Cost units a second it parses; the kernel's buffer between app and terminal.
        let rate: Double, kernelCapacity = 16 * 1024, chunk = 4096
        /// Bytes in the kernel, in order: (bytes, cost, ends with a request).
        var kernel: [(bytes: Int, cost: Double, asks: Bool)] = []
        var inKernel = 0
        var parsedUntil = Duration.zero
        var answers: [Duration] = []

        /// Takes what fits of `pending` (the app's writer) into the kernel.
        mutating func accept(_ pending: inout [(bytes: Int, cost: Double, asks: Bool)]) {
            while let first = pending.first, inKernel < kernelCapacity {
                let room = kernelCapacity - inKernel
                if first.bytes <= room {
                    kernel.append(first)
                    inKernel += first.bytes
                    pending.removeFirst()
                } else {
                    let share = Double(room) / Double(first.bytes)
                    kernel.append((room, first.cost * share, false))
                    inKernel += room
                    pending[0] = (first.bytes - room, first.cost * (1 - share), first.asks)
                }
            }
        }

        /// Reads and parses until `time`.
        mutating func run(until time: Duration) {
            while parsedUntil <= time, let first = kernel.first {
                let bytes = min(first.bytes, chunk)
                let share = Double(bytes) / Double(first.bytes)
                parsedUntil += .seconds(first.cost * share / rate)
                inKernel -= bytes
                if bytes == first.bytes {
                    kernel.removeFirst()
                    if first.asks { answers.append(parsedUntil) }
                } else {
                    kernel[0] = (first.bytes - bytes, first.cost * (1 - share), first.asks)
                }
            }
            if kernel.isEmpty { parsedUntil = max(parsedUntil, time) }
        }
    }

    /// Ticks at which the writer still held bytes (terminal hitches) over a 10 s fling at
    /// 120 Hz: each frame sends 2 KB of text and exposes 3 thumbnail rows of 1.5 KB, each
    /// costing its bytes and 3.7 KB as an image; the terminal parses `rate`.
    static func fling(byParse: Bool, rate: Double) -> (behind: Int, stripsSent: Int) {
        var terminal = ParsingTerminal(rate: rate)
        var misses = OutputPacing(), parse = ParsePacing()
        var pending: [(bytes: Int, cost: Double, asks: Bool)] = []
        var backlog = 0, behind = 0, sent = 0, taken = 0
        let strip = 1536, imageCost = 3700, ceiling = 2_000_000
        for frame in 1...1200 {
            let tick = period * frame
            // Between ticks: the writer hands over what fits, and answers are read as they come.
            for step in 1...20 {
                let time = tick - period + period * step / 20
                terminal.run(until: time)
                let before = pending.reduce(0) { $0 + $1.bytes }
                terminal.accept(&pending)
                taken += before - pending.reduce(0) { $0 + $1.bytes }
                while let answer = terminal.answers.first, answer <= time {
                    terminal.answers.removeFirst()
                    parse.answered(at: answer, period: period)
                }
            }
            let isBehind = !pending.isEmpty
            misses.observe(at: tick, bytesTaken: taken, behind: isBehind, ceiling: ceiling, moreToSend: backlog > 0)
            if isBehind {
                behind += 1
                backlog += 3
                continue
            }
            backlog = min(backlog + 3, 60)
            let budget = byParse ? parse.bytesForNextFrame(ceiling: ceiling / 120)
                : misses.optionalBytesPerFrame(hertz: 120, ceiling: ceiling, pending: 0)
            var cost = 0, strips = 0
            while backlog > 0, strips == 0 || cost + strip + imageCost <= budget {
                guard budget > 0 else { break }
                cost += strip + imageCost
                strips += 1
                backlog -= 1
            }
            sent += strips
            let asks = byParse && strips > 0
            pending.append((2048 + strips * strip, Double(2048 + cost), asks))
            if asks { parse.requested(cost: cost, at: tick) }
        }
        return (behind, sent)
    }

    /// Slower than the fling's demand (1.9 MB/s of cost), misses leave bytes waiting at some
    /// ticks (102, 2 and 2 here); round trips at none, for at least half of the strips (55,
    /// 75 and 81 %: one batch in flight is the price). Faster, every strip goes.
    @Test func aFlingPacedByRoundTripsNeverLeavesBytesWaitingPacedByMissesItDoes() {
        for rate in [800_000.0, 1_600_000, 2_000_000] {
            let missed = Self.fling(byParse: false, rate: rate)
            let paced = Self.fling(byParse: true, rate: rate)
            #expect(missed.behind > 0, "rate \(rate): \(missed)")
            #expect(paced.behind == 0, "rate \(rate): \(paced)")
            #expect(paced.stripsSent * 2 >= missed.stripsSent, "rate \(rate): \(paced) against \(missed)")
        }
        #expect(Self.fling(byParse: true, rate: 6_000_000) == (0, 3600))
    }
}


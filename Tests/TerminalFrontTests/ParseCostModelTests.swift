import CoreKit
import Testing
@testable import TerminalFront

/// The price of an image learned from a terminal's answers (issue 46, D-081): the fit on
/// its own, and a fling on the virtual clock against a terminal whose images cost more
/// than the encoder's prior says.
struct ParseCostModelTests {
    static let period = ParsePacingTests.period

    /// A terminal that parses a byte in 60 ns and starts an image in 1.2 ms (an image is
    /// worth 20,000 bytes), behind a fixed 0.4 ms: batches of whole pictures and strips,
    /// mixed, give the price within 1 % after the first dozen.
    @Test func aMixOfPicturesAndStripsGivesTheTerminalsPrice() throws {
        var model = ParseCostModel()
        var random = SplitMix64(seed: 46)
        for batch in 0..<40 {
            let whole = Int(random.next() % 4), strips = Int(random.next() % 6)
            let bytes = whole * 9_000 + strips * 1_500 + 1
            let images = whole + strips
            model.add(bytes: bytes, images: images, roundTrip: .microseconds(400) + .nanoseconds(60 * bytes) + .microseconds(1_200 * images), period: Self.period * 100)
            if batch < ParseCostModel.minimumBatches - 1 { #expect(model.imagePrice == nil, "batch \(batch): too few yet") }
            if batch == ParseCostModel.minimumBatches - 1 { #expect(model.imagePrice.map { abs($0 - 20_000) <= 200 } == true, "the twelfth: \(String(describing: model.imagePrice))") }
        }
        let price = try #require(model.imagePrice)
        #expect(abs(price - 20_000) <= 200, "\(price)")
        let fit = try #require(model.fit)
        #expect(abs(fit.fixed - 0.000_4) < 0.000_01, "\(fit.fixed)")
    }

    /// Batches of whole pictures alone, of 7.5–10.5 KB each, cannot tell bytes from images
    /// (1 − ρ² under ``ParseCostModel/minimumSpread``), even with round trips that fit them
    /// exactly: no fit, no price, the prior stands (and there it does not matter: the
    /// allowance counts such batches). Spread enough (strips among them), the same terminal
    /// is priced.
    @Test func batchesOfOneMixGiveNoPrice() {
        func model(strips: Bool) -> ParseCostModel {
            var model = ParseCostModel()
            var random = SplitMix64(seed: 12)
            for _ in 0..<40 {
                var bytes = 0, images = 0
                for _ in 0..<Int(random.next() % 5 + 1) {
                    bytes += strips && random.next() % 2 == 0 ? 1_500 : 7_500 + Int(random.next() % 3_000)
                    images += 1
                }
                model.add(bytes: bytes, images: images, roundTrip: .microseconds(300) + .nanoseconds(60 * bytes) + .microseconds(220 * images), period: Self.period)
            }
            return model
        }
        let alike = model(strips: false)
        #expect(alike.batches == 40)
        #expect(alike.fit == nil && alike.imagePrice == nil)
        #expect(model(strips: true).imagePrice.map { abs($0 - 3_667) <= 40 } == true)
    }

    /// Batches of whole pictures alone, whose bytes an image differ by a third at most,
    /// cannot tell bytes from images: no price. Batches that mix strips and pictures can,
    /// within ``ParseCostModel/maximumError`` when round trips vary by 1 ms for like batches;
    /// when they vary by 6 ms (a terminal sharing its cores), the fit's error is beyond it
    /// and the prior stands: in xterm, fits taken without asking their error ran from 0 to
    /// 64 KB between runs.
    @Test func aPriceIsGivenOnlyWhereTheMixAndTheNoiseTellItApart() throws {
        func model(mixed: Bool, jitter: Int64) -> ParseCostModel {
            var model = ParseCostModel()
            var random = SplitMix64(seed: 3)
            for _ in 0..<400 {
                var bytes = 0, images = 0
                for _ in 0..<Int(random.next() % 4 + 1) {
                    let strip = mixed && random.next() % 2 == 0
                    bytes += strip ? 1_500 : 7_500 + Int(random.next() % 3_000)
                    images += 1
                }
                let noise = Duration.microseconds(Int64(random.next() % UInt64(jitter)))
                model.add(bytes: bytes, images: images, roundTrip: .microseconds(500) + .nanoseconds(60 * bytes) + .microseconds(220 * images) + noise, period: Self.period)
            }
            return model
        }
        #expect(model(mixed: false, jitter: 1_000).imagePrice == nil)
        let noisy = model(mixed: true, jitter: 6_000)
        #expect(noisy.fittedPrice.map { $0.error > Int(ParseCostModel.maximumError) } == true && noisy.imagePrice == nil,
                "\(String(describing: noisy.fittedPrice))")
        let price = try #require(model(mixed: true, jitter: 1_000).imagePrice)
        #expect(abs(price - 3_667) <= 1_000, "\(price)")
    }

    /// The price's standard error is what its fits really spread by: the same 60 batches
    /// (an image worth 20,000 bytes) under 2 ms of noise, drawn 60 times, give prices whose
    /// standard deviation is within a third of the error the model states. (An error that
    /// took the cost a byte as known stated a sixth of it.)
    @Test func thePricesErrorIsItsSpreadOverTheNoise() throws {
        var layout = SplitMix64(seed: 20)
        let batches = (0..<60).map { _ -> (bytes: Int, images: Int) in
            var bytes = 0, images = 0
            for _ in 0..<Int(layout.next() % 5 + 1) {
                bytes += layout.next() % 2 == 0 ? 1_500 : 9_000
                images += 1
            }
            return (bytes, images)
        }
        var prices: [Double] = [], errors: [Double] = []
        for seed in 1...60 {
            var noise = SplitMix64(seed: UInt64(seed))
            var model = ParseCostModel()
            for batch in batches {
                let jitter = Duration.microseconds(Int64(noise.next() % 2_000))
                model.add(bytes: batch.bytes, images: batch.images, roundTrip: .microseconds(400) + .nanoseconds(60 * batch.bytes) + .microseconds(1_200 * batch.images) + jitter, period: Self.period)
            }
            let fit = try #require(model.fit)
            prices.append(fit.perImage / fit.perByte)
            errors.append(fit.priceError)
        }
        let mean = prices.reduce(0, +) / Double(prices.count)
        let spread = (prices.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(prices.count - 1)).squareRoot()
        let stated = errors.sorted()[errors.count / 2]
        #expect(stated > spread / 1.33 && stated < spread * 1.33, "stated \(stated), spread \(spread)")
    }

    /// A round trip more than four frames beyond the shortest is the terminal stalling, not
    /// the batch: not fitted, so one stall does not move the price. Over a link whose delay
    /// (60 ms, more than four frames) is in every answer, the batches are still fitted.
    @Test func aStallIsNotFittedButALinksDelayIs() {
        for delay in [Duration.zero, .milliseconds(60)] {
            var model = ParseCostModel()
            var random = SplitMix64(seed: 7)
            func batch(stalled: Bool) {
                let whole = Int(random.next() % 3) + 1, strips = Int(random.next() % 4)
                let bytes = whole * 9_000 + strips * 1_500, images = whole + strips
                let parse = Duration.nanoseconds(60 * bytes) + .microseconds(220 * images)
                model.add(bytes: bytes, images: images, roundTrip: delay + parse + (stalled ? .milliseconds(40) : .zero), shortest: delay, period: Self.period)
            }
            for _ in 0..<20 { batch(stalled: false) }
            let before = model.imagePrice
            batch(stalled: true)
            #expect(model.batches == 20 && model.imagePrice == before, "delay \(delay)")
            #expect(before.map { abs($0 - 3_667) <= 40 } == true, "delay \(delay): \(String(describing: before))")
        }
    }

    /// The pacing fits what it was told of each batch: the price comes from round trips.
    @Test func thePacingLearnsThePriceFromItsRequests() {
        var pacing = ParsePacing()
        var time = Duration.zero
        for batch in 0..<30 {
            let whole = batch % 3, strips = (batch * 7) % 5 + 1
            let bytes = whole * 9_000 + strips * 1_500, images = whole + strips
            pacing.requested(cost: bytes + 3_700 * images, bytes: bytes, images: images, at: time)
            time += .milliseconds(60) + .nanoseconds(60 * bytes) + .microseconds(600 * images)  // a link's delay in each
            pacing.answered(at: time, period: Self.period)
            time += .milliseconds(20)
        }
        #expect(pacing.imagePrice.map { abs($0 - 10_000) <= 100 } == true, "\(String(describing: pacing.imagePrice))")
        #expect(pacing.costs.batches == 29, "the first answer, its own shortest, is not fitted")
        // A request that says nothing of its bytes and images is not fitted.
        let fitted = pacing.costs.batches
        pacing.requested(cost: 5_000, at: time)
        pacing.answered(at: time + .milliseconds(1), period: Self.period)
        #expect(pacing.costs.batches == fitted)
    }

    // MARK: A fling on the virtual clock

    /// Round trips of the batches in a 10 s fling at 120 Hz against ``ParsePacingTests/ParsingTerminal``:
    /// each frame sends 2 KB of text and exposes `perFrame` pictures, each whole (9 KB) or a
    /// strip (1.5 KB) at random; the terminal parses `rate` of its cost units a second, an
    /// image costing it `truePrice` bytes beside its bytes. The app prices images at the
    /// prior (3,700) or at the price it learns.
    static func fling(learns: Bool, truePrice: Int, rate: Double = 6_000_000, perFrame: Int = 3) -> (roundTrips: [Duration], price: Int?, sent: Int) {
        var terminal = ParsePacingTests.ParsingTerminal(rate: rate)
        var parse = ParsePacing()
        var pending: [(bytes: Int, cost: Double, asks: Bool)] = []
        var backlog: [Int] = []
        var random = SplitMix64(seed: 81)
        var sent = 0
        for frame in 1...1200 {
            let tick = period * frame
            for step in 1...20 {
                let time = tick - period + period * step / 20
                terminal.run(until: time)
                terminal.accept(&pending)
                while let answer = terminal.answers.first, answer <= time {
                    terminal.answers.removeFirst()
                    parse.answered(at: answer, period: period)
                }
            }
            for _ in 0..<perFrame { backlog.append(random.next() % 2 == 0 ? 9_000 : 1_500) }
            if backlog.count > 40 { backlog.removeFirst(backlog.count - 40) }
            guard pending.isEmpty else { continue }
            let budget = parse.bytesForNextFrame(ceiling: .max)
            let price = (learns ? parse.imagePrice : nil) ?? 3_700
            var cost = 0, bytes = 0, images = 0
            while budget > 0, let next = backlog.first, images == 0 || cost + next + price <= budget {
                backlog.removeFirst()
                cost += next + price
                bytes += next
                images += 1
            }
            sent += images
            pending.append((2048 + bytes, Double(2048 + bytes + images * truePrice), images > 0))
            if images > 0 { parse.requested(cost: cost, bytes: bytes, images: images, at: tick) }
        }
        return (parse.roundTrips, parse.imagePrice, sent)
    }

    /// What the terminal's parse of each batch took beyond the shortest round trip (the
    /// time the allowance aims at), sorted.
    static func parses(_ roundTrips: [Duration]) -> [Double] {
        let shortest = roundTrips.min() ?? .zero
        return roundTrips.map { ($0 - shortest).milliseconds }.sorted()
    }

    /// Where images cost the terminal three times the prior and the pacing binds (the
    /// pictures come faster than it parses them), a learned price makes the cost the
    /// allowance counts what the terminal spends: a batch of strips, which the prior
    /// underprices most, no longer overruns the target as the allowance learned on a mix
    /// lets too many through. The slowest batches are faster (p99 15.75 → 11.5 and
    /// 10.9 → 8.6 ms here) for about the same pictures sent.
    @Test func aLearnedPriceKeepsTheSlowestBatchesNearerTheTarget() {
        for (rate, perFrame) in [(6_000_000.0, 5), (12_000_000, 5)] {
            let prior = Self.fling(learns: false, truePrice: 12_000, rate: rate, perFrame: perFrame)
            let learned = Self.fling(learns: true, truePrice: 12_000, rate: rate, perFrame: perFrame)
            for run in [prior, learned] {
                #expect(run.price.map { abs($0 - 12_000) <= 600 } == true, "fitted either way: \(String(describing: run.price))")
            }
            let (before, after) = (Self.parses(prior.roundTrips), Self.parses(learned.roundTrips))
            let p99 = { (parses: [Double]) in parses[parses.count * 99 / 100] }
            #expect(p99(after) < p99(before), "rate \(rate): p99 \(p99(after)) against \(p99(before)) ms")
            #expect(learned.sent * 10 >= prior.sent * 9, "pictures sent \(learned.sent) against \(prior.sent)")
        }
    }
}

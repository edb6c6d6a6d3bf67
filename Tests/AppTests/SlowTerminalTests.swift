@testable import destinations
import Foundation
import RenderLoop
import TerminalFront
import Testing

/// The grid on a terminal that takes bytes at a fixed rate in virtual time (a slow SSH
/// link, a terminal busy parsing pixels): frames are coalesced while it is behind, each
/// tick it is behind is a terminal hitch, and commits never wait for it. Exact figures.
@Suite struct SlowTerminalTests {
    static func slowRun(bytesPerSecond: Double?, seed: UInt64 = 1) throws -> GridReport {
        let simulation = try GridSimulation(GridSimulation.options(.fling, seconds: 3, seed: seed))
        if let bytesPerSecond {
            let clock = simulation.clock
            simulation.backend.simulateLink(bytesPerSecond: bytesPerSecond) { clock.now }
        }
        return simulation.app.runToEnd()
    }

    @Test func aSlowTerminalCoalescesFramesAndEachTickBehindIsATerminalHitch() throws {
        let report = try Self.slowRun(bytesPerSecond: 30_000)
        #expect(report.hitch.commitHitches == 0, "commits never wait for the terminal")
        #expect(report.hitch.terminalHitches > 0)
        #expect(report.output.coalescedFrames > 0)
        #expect(report.launchOutputTicks > 0, "at 30 KB/s the first screen takes many ticks")
        #expect(report.hitch.terminalBehindFrames + report.launchOutputTicks == report.output.coalescedFrames,
                "a frame whose tick found the terminal behind is the frame that was not sent (the launch's own counted apart)")
        #expect(report.hitch.terminalHitchTime == RefreshRate.hz120.period * report.hitch.terminalBehindFrames)
        #expect(report.hitch.totalHitchTime == report.hitch.commitHitchTime + report.hitch.terminalHitchTime)
        let rate = try #require(report.output.drainMedian, "the terminal's rate is measured while it is behind")
        #expect(abs(rate - 30_000) < 30_000 * 0.05, "measured \(rate) B/s on a 30,000 B/s link")
        #expect(try Self.slowRun(bytesPerSecond: 30_000).hitch == report.hitch, "exactly repeatable")
    }

    @Test func aTerminalThatKeepsUpHasNoTerminalHitch() throws {
        let fast = try Self.slowRun(bytesPerSecond: 50_000_000)
        #expect(fast.hitch.terminalHitches == 0)
        #expect(fast.output.coalescedFrames == 0)
        let instant = try Self.slowRun(bytesPerSecond: nil)
        #expect(instant.hitch.terminalBehindFrames == 0)
        #expect(instant.output.drainMedian == nil, "never behind: no rate to measure")
    }

    @Test func onceASlowTerminalCatchesUpItShowsWhatAFastOneShows() throws {
        let fast = try GridSimulation(GridSimulation.options(nil, seconds: 60))
        let slow = try GridSimulation(GridSimulation.options(nil, seconds: 60))
        let clock = slow.clock
        slow.backend.simulateLink(bytesPerSecond: 20_000) { clock.now }
        // Each step settles before the next (a screen takes seconds at 20 KB/s), so both
        // terminals get the same keys in the same state.
        for simulation in [fast, slow] {
            simulation.settle(limit: 20_000)
            simulation.press(.pageDown, .pageDown, .down, .down, limit: 20_000)
            simulation.press(.character("J"), limit: 20_000)
            simulation.press(.pageUp, limit: 20_000)
        }
        #expect(!slow.backend.isOutputBehind)
        #expect(slow.backend.outputStatistics.coalescedFrames > 0, "the slow terminal fell behind on the way")
        let differing = zip(slow.backend.rowTexts, fast.backend.rowTexts).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(differing.isEmpty, "rows that differ: \(differing.map { "\($0.offset): \($0.element.0) | \($0.element.1)" })")
    }

    /// Image transmissions held back for want of budget are bytes waiting, like pixel rows
    /// left as symbols: once the terminal keeps up, the budget a miss cut grows back and
    /// every thumbnail arrives (in kitty 0.26 under Xvfb, a fling once left a third of the
    /// screen as placeholders for good).
    @Test(arguments: [GraphicsRequest.kitty, .kittyPlacement])
    func heldBackTransmissionsGrowTheBudgetBack(_ graphics: GraphicsRequest) throws {
        var options = GridSimulation.options(nil, seconds: 600)
        options.graphics = graphics
        let simulation = try GridSimulation(options, capability: .direct)
        let clock = simulation.clock
        simulation.backend.simulateLink(bytesPerSecond: 100_000) { clock.now }
        // Settled, then ten seconds more: the simulated network's delays outlast a settle.
        simulation.settle(limit: 20_000)
        simulation.frames(1200)
        #expect(simulation.placeholdersOnScreen == 0)
        for _ in 0..<3 {
            simulation.press(.character("J"), limit: 20_000)
            simulation.frames(1200)
            #expect(simulation.placeholdersOnScreen == 0, "after a fling over a slow link")
        }
        #expect(simulation.backend.outputStatistics.coalescedFrames > 0, "the link fell behind on the way")
    }

    /// After each page of the browse scenario the grid rests 2–3 s: every rest settles (its
    /// thumbnails prepared and the frame showing them taken by the terminal), over a link
    /// that takes a frame within a tick, even when every frame sends bytes (in a terminal
    /// the HUD's figures change every frame; here the screen is repainted every frame).
    /// Judged when the frame was queued, its own bytes were always still pending: in xterm
    /// a rest settled only by chance.
    @Test(arguments: [false, true]) func everyRestSettlesEvenWhenEveryFrameSendsBytes(repaintEveryFrame: Bool) throws {
        let simulation = try GridSimulation(GridSimulation.options(.browse, seconds: 12))
        let clock = simulation.clock
        simulation.backend.simulateLink(bytesPerSecond: 20_000_000) { clock.now }
        while !simulation.app.isDone {
            simulation.frames(1)
            if repaintEveryFrame { simulation.backend.invalidate() }
        }
        let report = simulation.app.makeReport()
        let settle = try #require(report.settle, "no rest settled (interrupted: \(report.interruptedRests), waiting on \(report.interruptedRestsWaiting))")
        #expect(settle.keys >= 3, "pages at 2–3 s over 12 s")
        #expect(report.interruptedRests == 0, "waiting on \(report.interruptedRestsWaiting)")
        #expect(settle.max < 2000)
    }

    /// The skim scenario: a fling, then reading where it stopped. Each fling's motion ends
    /// on the frame that shows its last row (the sub-row tail is not motion a person sees),
    /// so the rest, and the settle clock, start when the screen stops; every rest settles.
    @Test func eachFlingRestsWhenTheScreenStopsAndSettles() throws {
        let simulation = try GridSimulation(GridSimulation.options(.skim, seconds: 16))
        let clock = simulation.clock
        simulation.backend.simulateLink(bytesPerSecond: 20_000_000) { clock.now }
        var row = simulation.app.view.topRow, lastRowChange = 0, frame = 0, rests = 0
        var wasMoving = false
        while !simulation.app.isDone {
            simulation.frames(1)
            frame += 1
            let view = simulation.app.view
            if view.topRow != row { (row, lastRowChange) = (view.topRow, frame) }
            if wasMoving && !view.isMoving {
                rests += 1
                #expect(lastRowChange == frame, "rest \(rests) began \(frame - lastRowChange) frames after the screen stopped")
            }
            wasMoving = view.isMoving
        }
        let report = simulation.app.makeReport()
        let settle = try #require(report.settle, "no rest settled (interrupted: \(report.interruptedRests))")
        #expect(rests >= 2 && settle.keys == rests, "flings every 4.7–5.7 s over 16 s: \(rests) rests, \(settle.keys) settled")
        #expect(report.interruptedRests == 0, "waiting on \(report.interruptedRestsWaiting)")
    }

    @Test func keysAreReadEveryTickWhileTheTerminalIsBehind() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 60))
        let clock = simulation.clock
        simulation.backend.simulateLink(bytesPerSecond: 5_000) { clock.now }
        simulation.frames(2)
        #expect(simulation.backend.isOutputBehind, "the first screen takes seconds at 5 KB/s")
        let selected = simulation.app.model.selected
        simulation.backend.type(.right)
        simulation.frames(1)
        #expect(simulation.app.model.selected != selected, "the key was handled in the next frame")
        #expect(simulation.backend.isOutputBehind)
    }
}

/// The real binary behind a 20 KB/s pseudo-terminal (scripts/slowlink.py): invariants only,
/// no timing decides it. Every frame the terminal receives is whole (synchronized output
/// opened and closed, never nested or cut), the app coalesced and counted terminal hitches,
/// and `q` still ends it.
@Suite struct SlowLinkEndToEndTests {
    @Test func behindASlowLinkEveryFrameArrivesWholeAndQuitStillQuits() throws {
        let script = AppProcess.root.appendingPathComponent("scripts/slowlink.py").path
        let result = try Spawn.run(["python3", script, "--rate", "20000", "--seconds", "3", "--keys", "3", "--",
                                    AppProcess.binary.path, "--refresh-rate", "120", "--graphics", "symbols"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let fling = try #require(object?["fling"] as? [String: Any], "harness said: \(result.stdout) \(result.stderr)")
        #expect(fling["frames_whole"] as? Bool == true)
        #expect((fling["frames_received"] as? Int ?? 0) > 0)
        #expect(fling["exit_status"] as? Int == 0)
        let terminal = try #require(fling["terminal"] as? [String: Any])
        #expect((terminal["coalesced_frames"] as? Int ?? 0) > 0, "20 KB/s cannot carry a fling: frames coalesce")
        let kinds = try #require(fling["hitches_by_kind"] as? [String: Any])
        #expect((kinds["terminal"] as? Int ?? 0) > 0)
        let keys = try #require(object?["keys"] as? [String: Any])
        #expect((keys["keys"] as? Int ?? 0) > 0, "keys reach the screen")
        #expect(keys["quit_ms"] is Double, "q ended the app")
    }
}

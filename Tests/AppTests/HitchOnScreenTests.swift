@testable import destinations
import RenderLoop
import Testing

/// The HUD tells a late commit that only waited for a core (D-070) from one that worked too
/// long, and the report counts it: the whole grid on the virtual clock.
@Suite struct HitchOnScreenTests {
    @Test func aFrameThatWaitedForACoreIsSaidSoInTheHUDAndTheReport() throws {
        let simulation = try GridSimulation(GridSimulation.options(.fling, seconds: 2), showsHUD: true)
        var waits = 0
        // Once, 20 ms pass while the loop waits for its tick, without work: whatever the
        // phase of the frame, the commit then ends after its deadline.
        simulation.backend.whileWaitingForTick = {
            waits += 1
            if waits == 60 { simulation.clock.preempt(for: .milliseconds(20)) }
        }
        let report = simulation.app.runToEnd()
        #expect(report.hitch.commitHitches == 1)
        #expect(report.hitch.commitHitchesFromWaiting == 1)
        #expect(simulation.screen.contains("hitches 1 commit (1 waited for a core) 0 terminal"), "HUD:\n\(simulation.screen)")
        #expect(report.json().contains("\"commit_from_waiting\":1"))
    }

    @Test func aFrameThatWorkedTooLongIsNot() throws {
        let simulation = try GridSimulation(GridSimulation.options(.fling, seconds: 2), showsHUD: true)
        var waits = 0
        simulation.backend.whileWaitingForTick = {
            waits += 1
            // The same 20 ms spent working while waiting, on past the tick: the app's.
            if waits == 60 { simulation.clock.advance(by: .milliseconds(20)) }
        }
        let report = simulation.app.runToEnd()
        #expect(report.hitch.commitHitches == 1)
        #expect(report.hitch.commitHitchesFromWaiting == 0)
        #expect(simulation.screen.contains("hitches 1 commit 0 terminal"), "HUD:\n\(simulation.screen)")
    }
}

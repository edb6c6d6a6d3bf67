@testable import destinations
import RenderLoop
import Testing

/// The HUD tells a late commit that only waited for a core (D-070) from one that worked too
/// long, and the report counts it: the whole grid on the virtual clock.
@Suite struct HitchOnScreenTests {
    /// A 2-s fling with the HUD on, where once, as the loop waits for its 60th tick, `lose`
    /// spends 20 ms of the virtual clock: whatever the phase of that frame, its commit then
    /// ends after its deadline.
    static func fling(losingTimeWith lose: @escaping (VirtualClock) -> Void) throws -> (report: GridReport, screen: String) {
        let simulation = try GridSimulation(GridSimulation.options(.fling, seconds: 2), showsHUD: true)
        var waits = 0
        simulation.backend.whileWaitingForTick = {
            waits += 1
            if waits == 60 { lose(simulation.clock) }
        }
        let report = simulation.app.runToEnd()
        return (report, simulation.screen)
    }

    @Test func aFrameThatWaitedForACoreIsSaidSoInTheHUDAndTheReport() throws {
        let (report, screen) = try Self.fling { $0.preempt(for: .milliseconds(20)) }
        #expect(report.hitch.commitHitches == 1)
        #expect(report.hitch.commitHitchesFromWaiting == 1)
        #expect(screen.contains("hitches 1 commit (1 waited for a core) 0 terminal"), "HUD:\n\(screen)")
        #expect(report.json().contains("\"commit_from_waiting\":1"))
    }

    /// The same 20 ms spent working while waiting, on past the tick: the app's.
    @Test func aFrameThatWorkedTooLongIsNot() throws {
        let (report, screen) = try Self.fling { $0.advance(by: .milliseconds(20)) }
        #expect(report.hitch.commitHitches == 1)
        #expect(report.hitch.commitHitchesFromWaiting == 0)
        #expect(screen.contains("hitches 1 commit 0 terminal"), "HUD:\n\(screen)")
    }
}

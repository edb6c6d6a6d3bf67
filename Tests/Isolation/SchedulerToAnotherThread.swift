// expect: error: risks causing data races
// The frame loop's scheduler handed to a detached task while its own thread runs frames.
import RenderLoop

@MainActor func share() {
    let scheduler = FrameScheduler(clock: VirtualClock())
    Task.detached { scheduler.isIdleWorkEnabled = false }
    scheduler.resetMeter()
}

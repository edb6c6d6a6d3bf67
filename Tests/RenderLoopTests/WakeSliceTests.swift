import CoreKit
import Foundation
import RenderLoop
import TestSupport
import Testing

/// The real clock's wake slice (D-067): the thread sleeps to a tick with a short slice and
/// runs its frame with the slice it had. Each check runs on a thread of its own, so the
/// test runner's threads keep their slices.
struct WakeSliceTests {
    /// The slice the kernel holds for thread `tid` of this process (`se.slice` in its
    /// `/proc/…/sched`, Linux 6.12 and later), read from another thread while it sleeps.
    static func kernelSlice(ofThread tid: Int32) -> Duration? {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(tid)/sched", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("se.slice") }),
              let nanoseconds = line.split(separator: ":").last.flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
        return .nanoseconds(nanoseconds)
    }

    @Test func theThreadSleepsWithTheWakeSliceAndRunsWithItsOwn() async {
        let sleeper = Lock<Int32?>(nil)
        let seen = Lock<Duration?>(nil)
        let results = await onOwnThread { () -> (standard: Duration?, afterDefault: Duration?, afterAsked: Duration?) in
            let standard = FrameLoopScheduling.currentSlice
            // This thread's id: /proc/thread-self names /proc/PID/task/TID.
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            sleeper.withLock { $0 = link.split(separator: "/").last.flatMap { Int32($0) } ?? -1 }
            // Another thread looks at this one's slice until it finds it asleep with the
            // wake slice (or gives up after 10 s); this one sleeps 20 ms at a time until then.
            let watcher = Thread {
                let tid = sleeper.withLock { $0 }!
                for _ in 0..<10_000 {
                    if Self.kernelSlice(ofThread: tid) == .microseconds(300) { seen.withLock { $0 = .microseconds(300) }; return }
                    usleep(1_000)
                }
                seen.withLock { $0 = .zero }
            }
            watcher.start()
            let clock = MonotonicClock(wakeSlice: .microseconds(300))
            while seen.withLock({ $0 }) == nil { clock.sleep(until: clock.now + .milliseconds(20)) }
            let afterDefault = FrameLoopScheduling.currentSlice
            let asking = MonotonicClock(wakeSlice: .microseconds(300), runSlice: .microseconds(900))
            asking.sleep(until: asking.now + .milliseconds(2))
            return (standard, afterDefault, FrameLoopScheduling.currentSlice)
        }
        guard let standard = results.standard else {
            // A kernel without custom slices: nothing is asked, nothing changes.
            #expect(results.afterDefault == nil && results.afterAsked == nil)
            return
        }
        #expect(seen.withLock { $0 } == .microseconds(300), "asleep, the wake slice")
        #expect(results.afterDefault == standard, "awake, the kernel's default again")
        #expect(results.afterAsked == .microseconds(900), "awake, the frame loop's own slice (--frame-slice-us)")
    }

    @Test func aClockWithoutAWakeSliceLeavesTheSliceAlone() async {
        let after = await onOwnThread { () -> (Duration?, Duration?) in
            FrameLoopScheduling.requestSlice(.microseconds(700))
            let clock = MonotonicClock()
            clock.sleep(until: clock.now + .milliseconds(1))
            return (FrameLoopScheduling.currentSlice, clock.wakeSlice)
        }
        if FrameLoopScheduling.currentSlice != nil { #expect(after.0 == .microseconds(700)) }
        #expect(after.1 == nil)
    }
}

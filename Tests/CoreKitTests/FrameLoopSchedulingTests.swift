import CoreKit
import Foundation
import TestSupport
import Testing

/// The frame loop's time slice (EEVDF custom slices, Linux 6.12 and later). Each check runs
/// on a thread of its own, so the test runner's threads keep their slices.
struct FrameLoopSchedulingTests {
    @Test func aThreadGetsTheSliceItAsksForAndItsNewThreadsTheDefault() async throws {
        let results = await onOwnThread { () -> (standard: Duration?, granted: Duration?, now: Duration?, child: Duration?) in
            let standard = FrameLoopScheduling.currentSlice
            let granted = FrameLoopScheduling.requestSlice(.microseconds(700))
            let now = FrameLoopScheduling.currentSlice
            let child = Lock<Duration?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                child.withLock { $0 = FrameLoopScheduling.currentSlice }
                done.signal()
            }.start()
            done.wait()
            return (standard, granted, now, child.withLock { $0 })
        }
        guard let standard = results.standard else {
            // A kernel without custom slices reports none, and nothing is granted.
            #expect(results.granted == nil)
            return
        }
        #expect(results.granted == .microseconds(700))
        #expect(results.now == .microseconds(700))
        #expect(results.child == standard, "a thread made afterwards keeps the kernel's default")
    }

    @Test func theKernelClampsAnAskBelowATenthOfAMillisecond() async {
        let granted = await onOwnThread { FrameLoopScheduling.requestSlice(.microseconds(10)) }
        if FrameLoopScheduling.currentSlice != nil { #expect(granted == .microseconds(100)) } else { #expect(granted == nil) }
    }

    @Test func aBatchThreadIsLeftAsItIs() async {
        let results = await onOwnThread { () -> (entered: Bool, granted: Duration?) in
            let entered = BatchScheduling.enterOnCurrentThread()
            return (entered, FrameLoopScheduling.requestSlice(.microseconds(700)))
        }
        #expect(results.entered)
        #expect(results.granted == nil, "not SCHED_OTHER: refused, the thread stays a batch thread")
    }
}

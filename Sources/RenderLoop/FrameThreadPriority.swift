#if os(Linux)
import CLinuxSched
#endif

/// The frame loop's claim on a core, for the thread that runs it.
///
/// Workers run at a lower priority (ImagePipeline's `WorkerPriority`), but on Linux's EEVDF
/// scheduler a thread that wakes still waits for the running thread's slice (3 ms by
/// default) unless its own requested slice is shorter: then its virtual deadline is
/// earlier and it preempts at once. The frame loop sleeps until each tick and must start
/// its commit right away, so it asks for short slices. Unprivileged, per thread; kernels
/// without custom slices ignore the request (DECISIONS.md, D-019).
public enum FrameThreadPriority {
    /// The slice the frame loop asks for: 0.5 ms.
    public static let slice = Duration.microseconds(500)

    /// Asks for short slices for the calling thread; false where the system refused.
    @discardableResult
    public static func claimForCurrentThread(slice: Duration = FrameThreadPriority.slice) -> Bool {
        #if os(Linux)
        return cls_request_slice(UInt64(slice.nanoseconds), 0) == 0
        #else
        return false
        #endif
    }

    /// The calling thread's requested slice (zero when none or unknown).
    public static var currentSlice: Duration {
        #if os(Linux)
        return .nanoseconds(Int64(cls_current_slice()))
        #else
        return .zero
        #endif
    }
}

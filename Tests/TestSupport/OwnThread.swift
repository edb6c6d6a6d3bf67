import Foundation

/// Runs `body` on a thread of its own and returns what it returned.
///
/// For work that blocks its thread for a long time (semaphores, a photo source that
/// blocks its caller as a transfer worker does) or that changes the thread's own
/// scheduling. A test body runs on Swift's cooperative pool, two threads on a two-core
/// machine: two such waits at once would hold the whole pool, and every async test of the
/// run (a loopback server's start among them) with it. Expectations stay with the caller,
/// on the test's task, where Swift Testing attributes them.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

import CoreKit
import Dispatch
import Foundation

/// Runs a network step to its end on the calling thread: for what happens before the grid
/// exists (the first page at the start, `destinations login`), where there is nothing else
/// to do meanwhile but show the wait and read the keys that end it.
public enum BlockingFetch {
    /// `body`'s result, waited for; never call it on a thread Swift's tasks need.
    ///
    /// `whileWaiting` is called about ten times a second with the time waited so far; false
    /// cancels `body` and throws ``FetchError/cancelled``. Past `bound`, `body` is cancelled
    /// and `tooSlow` thrown.
    public static func run<Value: Sendable>(bound: Duration? = nil, tooSlow: FetchError = .cancelled,
                                            whileWaiting: (Duration) -> Bool = { _ in true },
                                            _ body: @escaping @Sendable () async throws(FetchError) -> Value) throws(FetchError) -> Value {
        let result = Lock<Result<Value, FetchError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached {
            do throws(FetchError) {
                let value = try await body()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        let started = ContinuousClock.now
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            let waited = ContinuousClock.now - started
            let ending: FetchError? = if let bound, waited > bound { tooSlow } else if !whileWaiting(waited) { .cancelled } else { nil }
            guard let ending else { continue }
            task.cancel()
            throw ending
        }
        switch result.withLock({ $0 }) {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw .cancelled
        }
    }
}

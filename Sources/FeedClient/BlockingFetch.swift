import CoreKit
import Dispatch

/// Runs a network step to its end on the calling thread: for what happens before the grid
/// exists (the start, `destinations login`), where there is nothing else to do meanwhile.
public enum BlockingFetch {
    /// `body`'s result, waited for; never call it on a thread Swift's tasks need.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () async throws(FetchError) -> Value) throws(FetchError) -> Value {
        let result = Lock<Result<Value, FetchError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(FetchError) {
                let value = try await body()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch result.withLock({ $0 }) {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw .cancelled
        }
    }
}

import CoreKit
@testable import ImagePipeline
import Testing

/// A photo whose fetch was interrupted (a 5xx, a timeout, an unresumable drop) is marked and
/// asked for again after a doubling backoff; other failures stay. On a virtual clock with a
/// scripted loader, so every time below is exact.
@Suite struct InterruptedRetryTests {
    /// A clock the test moves by hand.
    final class Time: @unchecked Sendable { var now: Duration = .zero }

    /// A store whose request *n* completes 100 ms after it was made, failing with
    /// `failures(key)`'s answer (nil: prepared) for each attempt of that key.
    static func store(time: Time, cacheLimit: Int = 1 << 20, outcome: @escaping (PreparedImageKey, Int) -> ImageError?) -> AssetStore {
        var attempts: [PreparedImageKey: Int] = [:]
        let loader = ScriptedAssetLoader(now: { time.now }, latency: { _ in .milliseconds(100) }) { key in
            attempts[key, default: 0] += 1
            if let error = outcome(key, attempts[key]!) { return .failure(error) }
            return .success(PlaceholderCatalog().placeholder(for: key.asset, columns: key.columns, rows: key.rows, colorMode: .truecolor))
        }
        return AssetStore(cache: PreparedImageCache(limit: cacheLimit), loader: loader, colorMode: .truecolor)
    }

    static let key = PreparedImageKey(asset: AssetID(path: "https://example.test/a.jpg"), columns: 4, rows: 2)
    static let server500 = ImageError.interrupted(path: "https://example.test/a.jpg", reason: "the server answered 500")

    /// Moves to `time`, delivers what is due and retries what is due, as a frame does.
    static func frame(_ store: AssetStore, at time: Time, _ now: Duration) -> [PreparedImageKey] {
        time.now = now
        store.deliverCompletions()
        return store.retryInterrupted(now: now)
    }

    func isFailed(_ asset: Asset) -> Bool { if case .failed = asset { true } else { false } }

    @Test func backoffDoublesFromTwoSecondsToAMinute() {
        #expect((1...8).map { AssetStore.retryDelay(afterFailures: $0) } == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
    }

    @Test func anInterruptedPhotoIsAskedForAgainAfterItsBackoffAndArrives() {
        let time = Time()
        let store = Self.store(time: time) { _, attempt in attempt <= 2 ? Self.server500 : nil }
        var results: [Bool] = []
        store.downloadOnce(Self.key) { results.append((try? $0.get()) != nil) }
        #expect(Self.frame(store, at: time, .milliseconds(100)).isEmpty)
        #expect(results == [false])
        guard case .failed(_, let error) = store.asset(for: Self.key) else { Issue.record("not marked failed"); return }
        #expect(error.shortLabel == "will retry")
        // The first failure waits 2 s from the frame that saw it, and the loop knows when.
        #expect(store.nextDueTime == .milliseconds(2_100))
        #expect(Self.frame(store, at: time, .milliseconds(2_099)).isEmpty)
        #expect(isFailed(store.asset(for: Self.key)))
        #expect(Self.frame(store, at: time, .milliseconds(2_100)) == [Self.key])
        #expect(store.asset(for: Self.key).isPlaceholder && !isFailed(store.asset(for: Self.key)))
        #expect(store.retries == 1)

        // Asked again, it fails a second time: the wait doubles to 4 s.
        store.downloadOnce(Self.key) { results.append((try? $0.get()) != nil) }
        #expect(Self.frame(store, at: time, .milliseconds(2_200)).isEmpty)
        #expect(results == [false, false])
        #expect(store.nextDueTime == .milliseconds(6_200))
        #expect(Self.frame(store, at: time, .milliseconds(6_199)).isEmpty)
        #expect(Self.frame(store, at: time, .milliseconds(6_200)) == [Self.key])

        // The third attempt brings the photo: prepared, and nothing more is due.
        store.downloadOnce(Self.key) { results.append((try? $0.get()) != nil) }
        #expect(Self.frame(store, at: time, .milliseconds(6_300)).isEmpty)
        #expect(results == [false, false, true])
        #expect(!store.asset(for: Self.key).isPlaceholder)
        #expect(store.nextDueTime == nil)
        #expect(store.retries == 2)
    }

    @Test func aPhotoThatArrivesStartsItsBackoffOver() {
        let time = Time()
        // Fails, arrives (too large for a cache of one byte, so not kept), then fails again:
        // the wait is 2 s again, not 4.
        let store = Self.store(time: time, cacheLimit: 1) { _, attempt in attempt == 2 ? nil : Self.server500 }
        var results: [Bool] = []
        store.downloadOnce(Self.key) { results.append((try? $0.get()) != nil) }
        _ = Self.frame(store, at: time, .milliseconds(100))
        #expect(Self.frame(store, at: time, .milliseconds(2_100)) == [Self.key])
        store.downloadOnce(Self.key) { results.append((try? $0.get()) != nil) }
        _ = Self.frame(store, at: time, .milliseconds(2_200))
        #expect(results == [false, true])
        #expect(store.nextDueTime == nil)
        store.downloadOnce(Self.key) { results.append((try? $0.get()) != nil) }
        _ = Self.frame(store, at: time, .milliseconds(3_000))
        #expect(isFailed(store.asset(for: Self.key)))
        #expect(store.nextDueTime == .milliseconds(5_000))
    }

    @Test(arguments: [
        ImageError.unreadable(path: "https://example.test/a.jpg", reason: "the server answered 404"),
        ImageError.notAnImage(path: "https://example.test/a.jpg"),
        ImageError.unavailable(path: "https://example.test/a.jpg", reason: "cannot reach example.test"),
    ])
    func otherFailuresAreNotRetriedByTime(_ failure: ImageError) {
        let time = Time()
        let store = Self.store(time: time) { _, _ in failure }
        store.downloadOnce(Self.key) { _ in }
        _ = Self.frame(store, at: time, .milliseconds(100))
        #expect(isFailed(store.asset(for: Self.key)))
        #expect(store.nextDueTime == nil)
        #expect(Self.frame(store, at: time, .seconds(600)).isEmpty)
        #expect(isFailed(store.asset(for: Self.key)))
    }

    @Test func twoRequestsSharingOneFailureCountItOnce() {
        let time = Time()
        let store = Self.store(time: time) { _, attempt in attempt <= 2 ? Self.server500 : nil }
        // The detail view and a cell ask for the same key: one failure in a row each time.
        _ = store.download(Self.key) { _ in }
        _ = store.download(Self.key) { _ in }
        _ = Self.frame(store, at: time, .milliseconds(100))
        #expect(store.nextDueTime == .milliseconds(2_100))
    }
}

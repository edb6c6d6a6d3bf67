import CoreKit
import Foundation
import ImagePipeline
import Testing

/// A transfer under way whose last request went away is stopped after the next commit, not at
/// the frame's first look: a cell that left the range and came straight back, or a request
/// cancelled and made again in one layout, joins the transfer instead of starting a second
/// one of the same URL (which the server then answered twice: issue 25's duplicates).
@Suite struct OrphanedTransferTests {
    /// Holds every transfer until released; counts the transfers asked of it and the ones
    /// whose task was cancelled.
    final class HeldTransport: ImageSource, @unchecked Sendable {
        let bytes = [UInt8](FileManager.default.contents(atPath: fixture("quadrants-800.jpg"))!)
        let released = Lock(false)
        let asked = Lock<[String]>([])
        let cancelled = Lock(0)
        func image(at url: String, kind: PhotoKind, request: Int, onBytes: @escaping @Sendable (Int, Int?) -> Void) async throws(ImageError) -> ImageInput {
            asked.withLock { $0.append(url) }
            while !released.withLock({ $0 }) {
                if Task.isCancelled {
                    cancelled.withLock { $0 += 1 }
                    throw .unavailable(path: url, reason: "cancelled")
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
            onBytes(bytes.count, bytes.count)
            return .bytes(bytes)
        }
    }

    let transport = HeldTransport()
    let loader: ImageLoader

    init() {
        loader = ImageLoader(source: transport, workers: 1, priority: .normal, colorMode: .palette240, now: { .zero })
    }

    func ask(_ url: String, request: Int) -> Cancellable {
        let cancellation = Cancellable(priority: RequestPriority.visible(distance: 0))
        while !loader.load(PreparedImageKey(asset: AssetID(path: url), columns: 8, rows: 4), request: request, priority: cancellation.priority, cancellation: cancellation) {}
        return cancellation
    }

    /// Bounded waits for the transfer task's threads (never a timing: the bound only stops a hang).
    func until(_ condition: () -> Bool) async throws {
        for _ in 0..<4000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition())
    }

    /// A transfer of `url` under way (asked in a commit, started after it), whose only
    /// request then went away, seen by the next frame's first look.
    func leaveATransferUnderWay(_ url: String) async throws {
        let only = ask(url, request: 0)
        loader.startQueuedWork()  // after the commit that asked
        try await until { transport.asked.withLock { $0.count } == 1 }
        only.cancel()  // the cell left the range...
        loader.postDueCompletions()  // the next frame's first look: orphaned, not yet stopped
    }

    @Test func aRequestMadeAgainInTheNextCommitJoinsTheTransferUnderWay() async throws {
        try await leaveATransferUnderWay("a.jpg")
        _ = ask("a.jpg", request: 1)  // ...and its commit asks again
        loader.startQueuedWork()
        #expect(loader.networkCounters.cancelledInFlight == 0)
        #expect(loader.networkCounters.coalesced == 1)
        transport.released.withLock { $0 = true }
        var arrived: [AssetCompletion] = []
        try await until {
            loader.postDueCompletions()
            arrived += loader.inbox.drain()
            return !arrived.isEmpty
        }
        #expect(arrived.map(\.request) == [1], "the second request got the one transfer's photo")
        #expect(transport.asked.withLock { $0 } == ["a.jpg"], "one transfer of the URL")
        #expect(transport.cancelled.withLock { $0 } == 0)
    }

    @Test func aTransferNobodyAsksForAgainStopsAfterTheCommit() async throws {
        try await leaveATransferUnderWay("b.jpg")
        #expect(loader.networkCounters.cancelledInFlight == 0, "not at the frame's first look")
        loader.startQueuedWork()  // a commit that did not ask for it
        #expect(loader.networkCounters.cancelledInFlight == 1)
        try await until { transport.cancelled.withLock { $0 } == 1 }
        #expect(loader.networkCounters.cancelledInFlight == 1)
    }

    @Test func withoutACommitTheNextFrameStopsIt() async throws {
        try await leaveATransferUnderWay("c.jpg")
        loader.postDueCompletions()  // a quiet frame: no commit, no startQueuedWork
        #expect(loader.networkCounters.cancelledInFlight == 1)
        try await until { transport.cancelled.withLock { $0 } == 1 }
    }
}

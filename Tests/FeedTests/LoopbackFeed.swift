import CoreKit
import FeedClient
import FeedServer
import Foundation
import Logging

/// `destinations-feed` in this process, on a free loopback port, for one test.
final class LoopbackFeed: Sendable {
    let server: FeedServer
    let port: Int
    let scheme: String
    private let task: Task<Void, any Error>
    /// The previews folder made for this server (not one a test named): removed at `stop`.
    private let ownPreviews: String?

    /// Starts a server with `configure`'s options (port 0, previews in a fresh folder).
    static func start(_ configure: (inout FeedServer.Options) -> Void = { _ in }) async throws -> LoopbackFeed {
        var options = FeedServer.Options()
        options.port = 0
        options.posts = 200
        // A server stopped mid-response logs errors otherwise.
        options.logLevel = .critical
        let previews = FileManager.default.temporaryDirectory.appendingPathComponent("feed-previews-\(UUID().uuidString)").path
        options.previewFolder = previews
        options.learnsFirstPhotos = false  // 200 ms of decoding a server, for tests that mostly never ask
        configure(&options)
        let server = try FeedServer(options: options)
        let port = Lock<Int?>(nil)
        let failure = Lock<String?>(nil)
        let task = Task {
            do { try await server.run { taken in port.withLock { $0 = taken } } } catch {
                failure.withLock { $0 = "\(error)" }
                throw error
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while port.withLock({ $0 }) == nil {
            if let failure = failure.withLock({ $0 }) { throw TestFailure("the feed server did not start: \(failure)") }
            guard ContinuousClock.now < deadline else { throw TestFailure("the feed server did not start") }
            try await Task.sleep(for: .milliseconds(10))
        }
        return LoopbackFeed(server: server, port: port.withLock { $0 }!, scheme: options.tlsCertificate == nil ? "http" : "https", task: task,
                            ownPreviews: options.previewFolder == previews ? previews : nil)
    }

    private init(server: FeedServer, port: Int, scheme: String, task: Task<Void, any Error>, ownPreviews: String?) {
        self.server = server
        self.port = port
        self.scheme = scheme
        self.task = task
        self.ownPreviews = ownPreviews
    }

    var base: String { "\(scheme)://127.0.0.1:\(port)" }
    var timeline: String { "\(base)/api/v1/timelines/public" }
    var stats: ServerStats.Snapshot { server.stats.snapshot }

    /// Stops the server gracefully (cancelling its task traps in swift-nio when a connection
    /// was accepted and not yet served: seen under TSan on a busy machine).
    func stop() async {
        await server.stop()
        _ = try? await task.value
        if let ownPreviews { try? FileManager.default.removeItem(atPath: ownPreviews) }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}


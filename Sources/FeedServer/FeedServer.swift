import CoreKit
import DestinationsModel
import FeedFormat
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOSSL
import ServiceLifecycle

/// `destinations-feed`: the bundled posts, or a photo folder, served as a Mastodon timeline
/// on loopback, through a network shaped as asked (``NetworkShape``).
public struct FeedServer: Sendable {
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        /// 0: any free port (``start()`` reports the one taken).
        public var port = 8080
        /// A photo folder to serve instead of the bundled posts.
        public var photos: String?
        /// Posts in the timeline (the bundled 46 repeat, each with its own crop, as in the app).
        public var posts = 1000
        public var shape = NetworkShape()
        public var seed: UInt64 = 1
        public var token: String?
        /// PEM files: with both, HTTPS with HTTP/2 (and HTTP/1.1 for clients that ask).
        public var tlsCertificate: String?
        public var tlsKey: String?
        /// With TLS: speak only TLS 1.0 and 1.1, as an outdated server does (a test's: the
        /// client must refuse it, issue 43).
        public var legacyTLSOnly = false
        /// Where previews are kept between runs.
        public var previewFolder: String?
        public var mediaCacheControl = "public, max-age=604800, immutable"
        public var pageCacheControl = "public, max-age=30"
        /// What the server logs (warnings and up by default; tests keep it quiet).
        public var logLevel = Logger.Level.warning
        /// `--state`: favourites and answered idempotency keys kept in this file across a
        /// kill (nil: in memory).
        public var statePath: String?
        /// `--shapes`: plain statuses, or the shapes real servers send.
        public var shapes = StatusShapes.plain
        /// Learn the first pages' photos (sizes, BlurHashes) before listening, as a server
        /// knows them from the upload, so that the first page is not slow (the program does;
        /// a test's in-process server that never asks for them need not).
        public var learnsFirstPhotos = true

        public init() {}
    }

    public let stats = ServerStats()
    let options: Options
    let routes: FeedRoutes
    /// `/_cache/…`: responses with the caching headers a test names (``CacheRoutes``).
    let cacheRoutes = CacheRoutes()
    /// The service group of the server that ``run(onRunning:)`` started, for ``stop()``.
    private let running = Lock<ServiceGroup?>(nil)

    /// Reads the catalogue; throws a message for a bad folder or flag.
    public init(options: Options) throws {
        self.options = options
        let catalogue: Catalogue
        do {
            catalogue = try options.photos.map { try Catalogue(photosIn: URL(fileURLWithPath: $0)) } ?? Catalogue(folder: BundledAssets.folder)
        } catch {
            throw FeedServerError(description: "\(error)")
        }
        guard options.posts > 0 else { throw FeedServerError(description: "--posts must be at least 1") }
        let posts = try ServedPosts(catalogue: catalogue, count: options.posts, statePath: options.statePath, shapes: options.shapes)
        let folder = options.previewFolder.map { URL(fileURLWithPath: $0) } ?? Self.defaultPreviewFolder
        routes = FeedRoutes(posts: posts, media: MediaShop(posts: posts, folder: folder), shape: options.shape, dice: ShapeDice(seed: options.seed),
                            stats: stats, token: options.token, scheme: options.tlsCertificate == nil ? "http" : "https",
                            mediaCacheControl: options.mediaCacheControl, pageCacheControl: options.pageCacheControl)
        if options.learnsFirstPhotos { routes.media.learnPhotos(ofFirst: 80) }  // the largest first page (`limit` 80)
    }

    /// `$XDG_CACHE_HOME/destinations-feed` (else `~/.cache/destinations-feed`).
    static var defaultPreviewFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? "/tmp").appendingPathComponent(".cache")
        return cache.appendingPathComponent("destinations-feed")
    }

    /// Makes every post's preview now, on every core, keeping them in the preview folder
    /// (those already there are only read): a benchmark then measures the client, not the
    /// server making previews beside it. `progress` hears every 500 posts.
    public func preparePreviews(progress: @escaping @Sendable (Int) -> Void = { _ in }) {
        let count = routes.posts.count, media = routes.media
        let done = Lock(0)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            _ = try? media.preview(index: index)
            let finished = done.withLock { value -> Int in
                value += 1
                return value
            }
            if finished % 500 == 0 || finished == count { progress(finished) }
        }
    }

    /// Status ids the person favourited, as the server holds them.
    public var favouritedStatuses: [Int] { routes.posts.favouritedStatuses }

    /// Serves until ``stop()``, the task is cancelled, or the process gets SIGINT/SIGTERM;
    /// `onRunning` is told the port taken once it listens.
    public func run(onRunning: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let router = Router()
        routes.add(to: router)
        HostileRoutes(posts: routes.posts, media: routes.media, scheme: routes.scheme).add(to: router)
        cacheRoutes.add(to: router)
        var logger = Logger(label: "destinations-feed")
        logger.logLevel = options.logLevel
        let server: HTTPServerBuilder
        if let certificate = options.tlsCertificate, let key = options.tlsKey {
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
                var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
                if options.legacyTLSOnly {
                    configuration.minimumTLSVersion = .tlsv1
                    configuration.maximumTLSVersion = .tlsv11
                }
                server = try .http2Upgrade(tlsConfiguration: configuration)
            } catch {
                throw FeedServerError(description: "cannot use the TLS certificate or key: \(error)")
            }
        } else {
            server = .http1()
        }
        let app = Application(router: router, server: server,
                              configuration: .init(address: .hostname(options.host, port: options.port), serverName: "destinations-feed"),
                              onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: Self.groupConfiguration(app, logger: logger))
        running.withLock { $0 = group }
        try await group.run()
    }

    /// Stops the server started by ``run(onRunning:)``: it stops accepting, the responses under
    /// way end (a stalled or trickling one at once, the others within 2 s), then `run` returns.
    /// Cancelling `run`'s task instead traps in swift-nio when a connection was accepted and
    /// not yet served (swift-nio issue 3481).
    public func stop() async {
        await running.withLock { $0 }?.triggerGracefulShutdown()
    }

    private static func groupConfiguration(_ service: some Service, logger: Logger) -> ServiceGroupConfiguration {
        var configuration = ServiceGroupConfiguration(services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(2)
        return configuration
    }
}

/// A message for the person starting the server.
public struct FeedServerError: Error, CustomStringConvertible {
    public let description: String
}

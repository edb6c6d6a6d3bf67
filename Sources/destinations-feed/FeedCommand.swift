import ArgumentParser
import FeedServer
import Foundation

/// `destinations-feed`: a feed to browse with `destinations --feed URL`, on loopback.
@main
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "destinations-feed",
        abstract: "Serves the bundled posts (or a photo folder) as a Mastodon timeline, through a network shaped by flags.",
        discussion: """
        Browse it:  destinations --feed http://127.0.0.1:8080/api/v1/timelines/public
        Routes: GET /api/v1/timelines/public (pages, Link rel="next"), /media/preview/N.jpg and \
        /media/original/N.jpg (ETag, Last-Modified, Cache-Control, Range), POST \
        /api/v1/statuses/ID/favourite and /unfavourite (Idempotency-Key), GET /_feed/stats and /_feed/favourites.
        """)

    @Option(help: "Address to listen on (loopback unless you say otherwise).") var host = "127.0.0.1"
    @Option(help: "Port; 0 takes any free one (the one taken is printed).") var port = 8080
    @Option(help: ArgumentHelp("Serve this folder's JPEG, PNG, WebP and GIF photos instead of the bundled posts.", valueName: "dir")) var photos: String?
    @Option(help: "Posts in the timeline (the photos repeat, each post its own crop).") var posts = 1000
    @Option(help: ArgumentHelp("Latency before each response's headers, jittered by up to half of it either way.", valueName: "ms")) var latency = 0
    @Option(help: ArgumentHelp("Body bytes per second of each response, in KB/s (0: unlimited).", valueName: "kbps")) var bandwidth = 0
    @Option(name: .customLong("fail-rate"), help: ArgumentHelp("Share of requests answered 500, 0 to 1.", valueName: "p")) var failRate = 0.0
    @Option(name: .customLong("fail-media-first"), help: ArgumentHelp("Answer each photo's first N requests 500 (a server that fails every photo N times).", valueName: "n"))
    var failMediaFirst = 0
    @Option(name: .customLong("reset-after"), help: ArgumentHelp("Drop the connection after this many body bytes.", valueName: "bytes")) var resetAfter: Int?
    @Option(name: .customLong("stall-rate"), help: ArgumentHelp("Share of responses that send headers and then nothing, 0 to 1.", valueName: "p")) var stallRate = 0.0
    @Option(help: "Seed of the latency, failure and stall draws.") var seed: UInt64 = 1
    @Option(help: "Require this bearer token on timeline and favourite requests.") var token: String?
    @Option(help: ArgumentHelp("Keep favourites and the idempotency keys answered in this file, across a kill (default: in memory).", valueName: "file"))
    var state: String?
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("PEM certificate: serve HTTPS with HTTP/2.", valueName: "file")) var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file")) var tlsKey: String?
    @Option(name: .customLong("preview-folder"), help: ArgumentHelp("Where previews are kept (default $XDG_CACHE_HOME/destinations-feed).", valueName: "dir"))
    var previewFolder: String?
    @Flag(name: .customLong("prepare-previews"), help: "Make every post's preview before serving (kept in the preview folder for later runs).")
    var preparePreviews = false
    @Option(name: .customLong("media-cache-control"), help: "Cache-Control of media responses.") var mediaCacheControl = "public, max-age=604800, immutable"
    @Option(name: .customLong("page-cache-control"), help: "Cache-Control of timeline pages.") var pageCacheControl = "public, max-age=30"
    @Option(help: "How statuses look: plain (one picture each) or fediverse (content warnings, sensitive media, filters, galleries, GIFs, videos and boosts, as real servers send them).")
    var shapes: StatusShapes = .plain

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (1...1_000_000).contains(posts) else { throw ValidationError("--posts must be 1 to 1000000") }
        guard latency >= 0, latency <= 60_000 else { throw ValidationError("--latency must be 0 to 60000 ms") }
        guard bandwidth >= 0 else { throw ValidationError("--bandwidth must be >= 0") }
        guard (0...1).contains(failRate), (0...1).contains(stallRate) else { throw ValidationError("--fail-rate and --stall-rate must be 0 to 1") }
        guard (0...100).contains(failMediaFirst) else { throw ValidationError("--fail-media-first must be 0 to 100") }
        guard (resetAfter ?? 1) > 0 else { throw ValidationError("--reset-after must be at least 1") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    func run() async throws {
        var options = FeedServer.Options()
        options.host = host
        options.port = port
        options.photos = photos
        options.posts = posts
        options.shape = .init(latency: .milliseconds(latency), bytesPerSecond: bandwidth > 0 ? bandwidth * 1000 : nil, failRate: failRate,
                              resetAfter: resetAfter, stallRate: stallRate)
        options.shape.failMediaFirst = failMediaFirst
        options.seed = seed
        options.token = token
        options.statePath = state
        options.tlsCertificate = tlsCert
        options.tlsKey = tlsKey
        options.previewFolder = previewFolder
        options.mediaCacheControl = mediaCacheControl
        options.pageCacheControl = pageCacheControl
        options.shapes = shapes
        let server: FeedServer
        do {
            server = try FeedServer(options: options)
        } catch {
            FileHandle.standardError.write(Data("destinations-feed: \(error)\n".utf8))
            Foundation.exit(1)
        }
        if preparePreviews {
            let started = Date()
            server.preparePreviews { done in
                FileHandle.standardError.write(Data("destinations-feed: \(done) of \(posts) previews ready\n".utf8))
            }
            FileHandle.standardError.write(Data("destinations-feed: previews ready in \(Int(Date().timeIntervalSince(started))) s\n".utf8))
        }
        let scheme = tlsCert == nil ? "http" : "https"
        try await server.run { port in
            FileHandle.standardOutput.write(Data("destinations-feed: \(posts) posts at \(scheme)://\(host):\(port)/api/v1/timelines/public\n".utf8))
        }
    }
}

extension StatusShapes: ExpressibleByArgument {}

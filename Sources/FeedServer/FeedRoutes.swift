import FeedFormat
import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import ImagePipeline

/// The routes of `destinations-feed`: the subset of Mastodon's API the app speaks, the
/// media it links to, and the server's own counters.
///
/// - `GET /api/v1/timelines/public?limit=&max_id=` (also `/api/v1/timelines/home`): a page
///   of statuses, `Link: <…max_id=…>; rel="next"` while more follow;
/// - `GET /media/preview/:n.jpg`, `/media/original/:n.jpg`: with `ETag`, `Last-Modified`,
///   `Cache-Control`, and `Range` / `If-Range` (206, 416), `If-None-Match` (304);
/// - `POST /api/v1/statuses/:id/favourite` and `/unfavourite` (an `Idempotency-Key` is
///   honoured: the same key again changes nothing);
/// - `GET /_feed/stats`: ``ServerStats`` as JSON; `GET /_feed/favourites`: the favourited
///   status ids, as a JSON array.
struct FeedRoutes: Sendable {
    let posts: ServedPosts
    let media: MediaShop
    let shape: NetworkShape
    let dice: ShapeDice
    let stats: ServerStats
    /// When set, timeline and favourite requests need `Authorization: Bearer <token>`.
    let token: String?
    let scheme: String
    /// `Cache-Control` of media and of timeline pages.
    let mediaCacheControl: String
    let pageCacheControl: String

    /// Apps, codes and tokens (`destinations login`), and which tokens the home timeline takes.
    let oauth = OAuthRoutes()

    func add(to router: Router<BasicRequestContext>) {
        router.get("api/v1/timelines/public") { request, _ in try await self.timeline(request) }
        // The person's own timeline: only with a token (one a login got, or `--token`).
        router.get("api/v1/timelines/home") { request, _ in
            guard self.oauth.isValid(request) || (self.token != nil && self.refuseWithoutToken(request) == nil) else {
                return self.jsonError(.unauthorized, "The access token is invalid")
            }
            return try await self.timeline(request)
        }
        oauth.add(to: router)
        // An account's statuses and a tag's timeline (issue 45: `@user@server`, `#tag@server`).
        router.get("api/v1/accounts/lookup") { request, _ in try await self.lookup(request) }
        router.get("api/v1/accounts/:id/statuses") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await self.timeline(request) { self.posts.handle(ofIndex: $0) == id }
        }
        router.get("api/v1/timelines/tag/:tag") { request, context in
            let tag = (context.parameters.get("tag") ?? "").lowercased()
            return try await self.timeline(request) { self.posts.catalogue.post($0).title.lowercased().contains(tag) }
        }
        router.get("media/preview/:name") { request, context in
            try await self.media(request, name: context.parameters.get("name") ?? "", preview: true)
        }
        router.get("media/original/:name") { request, context in
            try await self.media(request, name: context.parameters.get("name") ?? "", preview: false)
        }
        router.post("api/v1/statuses/:id/favourite") { request, context in
            try await self.favourite(request, id: context.parameters.get("id") ?? "", on: true)
        }
        router.post("api/v1/statuses/:id/unfavourite") { request, context in
            try await self.favourite(request, id: context.parameters.get("id") ?? "", on: false)
        }
        router.get("_feed/stats") { _, _ in
            let body = try JSONEncoder().encode(self.stats.snapshot)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("_feed/favourites") { _, _ in
            let body = try JSONEncoder().encode(self.posts.favouritedStatuses)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    // MARK: Routes

    /// `GET /api/v1/accounts/lookup?acct=name`: the account whose handle it is, or 404.
    func lookup(_ request: Request) async throws -> Response {
        stats.update { $0.requests += 1 }
        let acct = request.uri.queryParameters["acct"].map(String.init)?.lowercased() ?? ""
        guard !acct.isEmpty, (0..<posts.count).contains(where: { posts.handle(ofIndex: $0) == acct }) else {
            return jsonError(.notFound, "Record not found")
        }
        let body = Array(try JSONEncoder().encode(AccountJSON(id: acct, username: acct, acct: acct, display_name: acct)))
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    func timeline(_ request: Request, matching: ((Int) -> Bool)? = nil) async throws -> Response {
        stats.update {
            $0.requests += 1
            $0.timelineRequests += 1
        }
        if let refused = refuseWithoutToken(request) { return refused }
        let (fate, delay) = dice.draw(shape)
        try await Task.sleep(for: delay)
        if fate == .fail { return serverError() }
        let query = request.uri.queryParameters
        let (indices, nextMaxID): ([Int], Int?)
        if let matching {
            (indices, nextMaxID) = posts.page(maxID: query["max_id"].map(String.init), limit: query["limit"].flatMap { Int($0) }, matching: matching)
        } else {
            let page = posts.page(maxID: query["max_id"].map(String.init), limit: query["limit"].flatMap { Int($0) })
            (indices, nextMaxID) = (Array(page.indices), page.nextMaxID)
        }
        let base = "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
        let statuses = indices.map { posts.status(index: $0, base: base, media: media.facts(index:)) }
        let body = Array(try JSONEncoder().encode(statuses))
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: pageCacheControl]
        if let nextMaxID {
            // The query kept (only_media, limit …), max_id replaced.
            let kept = request.uri.queryParameters.filter { $0.key != "max_id" }.map { "\($0.key)=\($0.value)" }.sorted()
            let query = (kept + ["max_id=\(nextMaxID)"]).joined(separator: "&")
            headers[HTTPField.Name("Link")!] = "<\(base)\(request.uri.path)?\(query)>; rel=\"next\""
        }
        return respond(status: .ok, headers: headers, body: body, fate: fate, kind: .timeline)
    }

    func media(_ request: Request, name: String, preview: Bool) async throws -> Response {
        stats.update {
            $0.requests += 1
            if preview { $0.previewRequests += 1 } else { $0.originalRequests += 1 }
        }
        let (fate, delay) = dice.draw(shape)
        try await Task.sleep(for: delay)
        if fate == .fail || dice.failsAsAFirstRequest(of: request.uri.path, shape) { return serverError() }
        guard name.hasSuffix(".jpg"), let index = Int(name.dropLast(4)), (0..<posts.count).contains(index) else {
            return jsonError(.notFound, "Record not found")
        }
        let found: MediaBody
        do {
            found = try preview ? media.preview(index: index) : media.original(index: index)
        } catch {
            return jsonError(.internalServerError, "\(error)")
        }
        var headers: HTTPFields = [.contentType: "image/jpeg", .eTag: found.etag, .cacheControl: mediaCacheControl, .acceptRanges: "bytes",
                                   .lastModified: HTTPDate.format(Int64(found.lastModified.timeIntervalSince1970))]
        if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == found.etag || $0 == "*" }) {
            stats.update { $0.status304 += 1 }
            return Response(status: .notModified, headers: headers)
        }
        // If-Range: the range only if the client's copy is this one (a strong ETag match).
        let rangeApplies = request.headers[.ifRange].map { $0 == found.etag } ?? true
        if rangeApplies, let range = ByteRange(header: request.headers[.range]) {
            guard let selected = range.resolved(length: found.bytes.count) else {
                headers[.contentRange] = "bytes */\(found.bytes.count)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(selected.lowerBound)-\(selected.upperBound - 1)/\(found.bytes.count)"
            stats.update { $0.status206 += 1 }
            return respond(status: .partialContent, headers: headers, body: Array(found.bytes[selected]), fate: fate,
                           kind: preview ? .preview : .original, path: request.uri.path)
        }
        return respond(status: .ok, headers: headers, body: found.bytes, fate: fate, kind: preview ? .preview : .original, path: request.uri.path)
    }

    func favourite(_ request: Request, id: String, on: Bool) async throws -> Response {
        stats.update {
            $0.requests += 1
            $0.favouriteRequests += 1
        }
        if let refused = refuseWithoutToken(request) { return refused }
        let (fate, delay) = dice.draw(shape)
        try await Task.sleep(for: delay)
        let key = request.headers[HTTPField.Name("Idempotency-Key")!]
        if fate == .fail {
            // Half the failures happen after the like was taken (the answer is what is lost):
            // the client must send it again, and its key keeps it from counting twice.
            if dice.uniform() < 0.5, let index = posts.index(ofStatus: id) {
                let (_, replayed) = posts.setFavourite(on, index: index, idempotencyKey: key)
                if replayed { stats.update { $0.replays += 1 } }
            }
            return serverError()
        }
        // A boost's own id, as Mastodon answers it: a favourite goes to the boosted status, an
        // un-favourite finds no favourite of the boost and changes nothing (issue 45).
        if let boosted = posts.boostedIndex(ofStatus: id) {
            if on { _ = posts.setFavourite(true, index: boosted, idempotencyKey: key) }
            stats.update { $0.favouritesByBoostID += 1 }
            let base = "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
            let body = Array(try JSONEncoder().encode(posts.status(index: boosted, base: base, media: media.facts(index:))))
            return respond(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: body, fate: fate, kind: .timeline)
        }
        guard let index = posts.index(ofStatus: id) else { return jsonError(.notFound, "Record not found") }
        let (_, replayed) = posts.setFavourite(on, index: index, idempotencyKey: key)
        if replayed { stats.update { $0.replays += 1 } }
        let base = "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
        let body = Array(try JSONEncoder().encode(posts.status(index: index, base: base, media: media.facts(index:))))
        return respond(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: body, fate: fate, kind: .timeline)
    }

    // MARK: Answers

    enum Kind { case timeline, preview, original }

    func refuseWithoutToken(_ request: Request) -> Response? {
        guard let token, request.headers[.authorization] != "Bearer \(token)" else { return nil }
        return jsonError(.unauthorized, "The access token is invalid")
    }

    private func serverError() -> Response {
        stats.update { $0.status500 += 1 }
        return jsonError(.internalServerError, "Something went wrong on our end (--fail-rate)")
    }

    func jsonError(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = Array((try? JSONEncoder().encode(["error": message])) ?? Data())
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The body written at the shaped rate, cut after `--reset-after` bytes, or never
    /// written (a stall); every byte that reached the socket is counted, and so is a client
    /// that left before the end.
    private func respond(status: HTTPResponse.Status, headers: HTTPFields, body: [UInt8], fate: NetworkShape.Fate, kind: Kind, path: String? = nil) -> Response {
        let shape = self.shape, stats = self.stats
        let stalls = fate == .stall
        let cut = shape.resetAfter.map { $0 < body.count } ?? false
        return Response(status: status, headers: headers, body: ResponseBody(contentLength: body.count) { writer in
            let transfer = path.map { stats.mediaStarted($0) }
            var whole = false
            defer { if let path, let transfer { stats.mediaEnded(path, transfer: transfer, whole: whole) } }
            var written = 0
            func count(_ bytes: Int) {
                stats.update {
                    $0.bodyBytes += bytes
                    if kind == .preview { $0.previewBytes += bytes }
                    if kind == .original { $0.originalBytes += bytes }
                }
            }
            if path != nil, let barrier = shape.holdMediaBodiesUntil {
                // Until enough bodies are under way, the hold's limit passes, or the server stops:
                // a client that never sends that many requests gets its bodies late, not never.
                let limit = ContinuousClock.now + NetworkShape.mediaHoldLimit
                try await cancelWhenGracefulShutdown {
                    while stats.mediaInFlight < barrier, ContinuousClock.now < limit { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            if stalls {
                stats.update { $0.stalls += 1 }
                // Until the client gives up, the limit passes, or the server stops.
                try? await cancelWhenGracefulShutdown { [limit = shape.stallLimit] in try await Task.sleep(for: limit) }
                throw CancellationError()
            }
            let end = cut ? shape.resetAfter! : body.count
            let chunk = shape.bytesPerSecond.map { max(1024, $0 / 50) } ?? 64 << 10
            let started = ContinuousClock.now
            do {
                while written < end {
                    let next = min(end, written + chunk)
                    try await writer.write(ByteBuffer(bytes: body[written..<next]))
                    count(next - written)
                    written = next
                    if let rate = shape.bytesPerSecond {
                        let due = started + .seconds(Double(written) / Double(rate))
                        if due > ContinuousClock.now { try await Task.sleep(until: due) }
                    }
                }
            } catch {
                stats.update {
                    $0.abandoned += 1
                    $0.abandonedBytes += written
                }
                throw error
            }
            if cut {
                stats.update { $0.resets += 1 }
                throw ConnectionReset()
            }
            try await writer.finish(nil)
            whole = true
        })
    }

    struct ConnectionReset: Error {}
}

import CoreKit
import FeedFormat
import Foundation
import HTTPTypes
import Hummingbird

/// Responses whose caching headers the request chooses, under `/_cache/NAME`, for the HTTP
/// cache's tests (each RFC 9111 behaviour against a server that sets exactly the headers a
/// test names) and for trying a cache by hand:
///
/// | query | what it sets |
/// |---|---|
/// | `cc` | `Cache-Control` |
/// | `etag` | `ETag`; a matching `If-None-Match` gets 304 |
/// | `modified` | `Last-Modified` (seconds since 1970); an `If-Modified-Since` at or after it gets 304 |
/// | `vary` | `Vary` (the body then names the request's value of that field) |
/// | `body` | the body (default: the name) |
/// | `status` | the status (default 200) |
///
/// `GET /_cache/_fail?name=NAME` makes NAME answer 500 from then on (a server that broke).
/// Hummingbird dates every answer (`Date`) on the real clock: a client whose clock runs
/// ahead sees answers as old as the difference, as RFC 9111's apparent age says.
/// `GET /_cache/_counts` answers how many requests each name had, and how many were 304s.
struct CacheRoutes: Sendable {
    struct Count: Codable, Sendable, Equatable {
        var requests = 0
        var notModified = 0
    }

    let counts = Lock<[String: Count]>([:])
    let failing = Lock<Set<String>>([])

    func add(to router: Router<BasicRequestContext>) {
        router.get("_cache/_counts") { _, _ in
            let body = try JSONEncoder().encode(self.counts.withLock { $0 })
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("_cache/_fail") { request, _ in
            let name = request.uri.queryParameters["name"].map(String.init) ?? ""
            self.failing.withLock { _ = $0.insert(name) }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "\(name) fails now")))
        }
        router.get("_cache/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            if self.failing.withLock({ $0.contains(name) }) {
                self.counts.withLock { $0[name, default: Count()].requests += 1 }
                return Response(status: .internalServerError, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "broken")))
            }
            let raw = request.uri.queryParameters
            // Query values arrive percent-encoded (`cc=max-age%3D60`).
            let query = Dictionary(raw.map { (String($0.key), String($0.value).removingPercentEncoding ?? String($0.value)) }) { first, _ in first }
            var headers: HTTPFields = [.contentType: "text/plain"]
            if let control = query["cc"] { headers[.cacheControl] = control }
            if let etag = query["etag"] { headers[.eTag] = "\"\(etag)\"" }
            let modified = query["modified"].flatMap { Int64($0) }
            if let modified { headers[.lastModified] = HTTPDate.format(modified) }
            var body = query["body"] ?? name
            if let vary = query["vary"], let field = HTTPField.Name(vary) {
                headers[.vary] = vary
                body += " for \(request.headers[field] ?? "-")"
            }
            let matchesTag = query["etag"].map { tag in request.headers[.ifNoneMatch]?.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "\"\(tag)\"" } ?? false } ?? false
            let unchangedSince = modified.map { since in request.headers[.ifModifiedSince].flatMap(HTTPDate.parse).map { $0 >= since } ?? false } ?? false
            let notModified = matchesTag || (request.headers[.ifNoneMatch] == nil && unchangedSince)
            self.counts.withLock {
                $0[name, default: Count()].requests += 1
                if notModified { $0[name, default: Count()].notModified += 1 }
            }
            if notModified { return Response(status: .notModified, headers: headers) }
            let status = query["status"].flatMap { Int($0) } ?? 200
            return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }
}

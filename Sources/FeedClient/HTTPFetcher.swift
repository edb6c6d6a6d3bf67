// The HTTP stack stays an implementation detail: its modules are not part of this
// module's interface, so the app that imports FeedClient never loads them.
internal import AsyncHTTPClient
import CoreKit
import FeedFormat
import HTTPCache
import Foundation
import ImagePipeline
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix
internal import NIOSSL

/// The methods the feed uses.
public enum FetchMethod: Sendable, Equatable {
    case get, post
    /// A POST of a form (`application/x-www-form-urlencoded`): an OAuth request.
    case postForm([String: String])

    /// The form as a body, keys in order so a request is the same every time.
    var formBody: String? {
        guard case .postForm(let fields) = self else { return nil }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.sorted { $0.key < $1.key }.map { key, value in
            "\(key.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}

/// Why a request brought nothing usable; the header shows ``description``.
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    case badURL(String)
    case unreachable(host: String, reason: String)
    case timedOut(host: String)
    case status(Int, message: String?)
    /// A 429 or 503 that said when to ask again (`Retry-After`, seconds or an HTTP-date):
    /// nothing is asked of that server before then (issue 43).
    case throttled(Int, retryAfter: Duration, message: String?)
    case tooLarge(limit: Int)
    case tooManyRedirects
    case redirectNotWeb(String)
    /// A POST answered with a redirect: not followed (a write is never replayed to where a
    /// server points, with the token and the Idempotency-Key; issue 43).
    case redirectedWrite(to: String)
    /// A 2xx whose body is not what the request's answer must be (a like's answer that is
    /// not the status, or does not say it is liked): the write is not counted as done.
    case unexpectedAnswer(String)
    /// The TLS handshake failed: an untrusted or mismatched certificate, or a server that
    /// offers nothing newer than TLS 1.1.
    case insecure(host: String, reason: String)
    /// The start's first page did not come within its bound (``FeedPager/firstPageBound``).
    case tooSlow(host: String, bound: Duration)
    /// The connection ended before the body did (a reset, a lying Content-Length).
    case cutShort(received: Int)
    /// The body came whole but is not what was asked for (a web page, broken JSON).
    case notATimeline(FeedError)
    case cancelled

    public var description: String {
        switch self {
        case .badURL: "not an http(s) URL"
        case let .unreachable(host, reason): "cannot reach \(shown(host)) (\(shown(reason)))"
        case .timedOut(let host): "\(shown(host)) did not answer in time"
        case let .status(code, message?): "the server answered \(code): \(shown(message))"
        case let .status(code, nil): "the server answered \(code)"
        case let .throttled(code, retryAfter, message):
            "the server answered \(code)\(message.map { ": " + shown($0) } ?? ""), and asks to wait \(Int((retryAfter / .seconds(1)).rounded(.up))) s"
        case .tooLarge(let limit): "the response is larger than \(limit / 1024) KiB"
        case .tooManyRedirects: "too many redirects"
        case .redirectNotWeb(let url): "a redirect to \(shown(url)), which is not http(s)"
        case .redirectedWrite(let url): "the server redirected the request to \(shown(url)); a write is not sent again elsewhere"
        case .unexpectedAnswer(let what): "the server's answer was not \(shown(what))"
        case let .tooSlow(host, bound): "\(shown(host)) sent no first page within \(Int(bound / .seconds(1))) s"
        case let .insecure(host, reason) where reason.hasPrefix("its certificate"):
            "no secure connection to \(shown(host)): \(shown(reason, limit: 600)) (a server of your own: --trust-certificate FILE trusts its certificate)"
        case let .insecure(host, reason): "no secure connection to \(shown(host)): \(shown(reason, limit: 600))"
        case .cutShort(let received): "the connection dropped after \(received) bytes"
        case .notATimeline(let error): error.description
        case .cancelled: "cancelled"
        }
    }

    /// Worth asking again later (a network or server trouble, not a wrong URL).
    public var isTransient: Bool {
        switch self {
        case .unreachable, .timedOut, .cutShort: true
        // JSON cut short is what a dropped connection without a Content-Length leaves.
        case .notATimeline(.malformedJSON): true
        case .status(let code, _): code >= 500 || code == 429 || code == 408 || code == 425
        case .throttled: true
        default: false
        }
    }

    /// How long the server asked to be left alone (`Retry-After` on a 429 or 503), if it did.
    public var retryAfter: Duration? {
        if case .throttled(_, let wait, _) = self { return wait }
        return nil
    }

    /// The longest `Retry-After` honoured: a server that asks for days is asked again in an
    /// hour (the person can always ask sooner).
    public static let longestRetryAfter: Duration = .seconds(3600)

    /// A `Retry-After` value (``RetryAfter``: delta-seconds, or an HTTP-date read against
    /// `now`, seconds since 1970) as a wait, capped at ``longestRetryAfter``; nil when it is
    /// neither.
    public static func retryAfter(_ value: String, now: Int64) -> Duration? {
        RetryAfter.seconds(value, now: now, cap: Int64(longestRetryAfter / .seconds(1))).map { .seconds($0) }
    }
}

/// A URL or server text as a message may show it: terminal-safe (the one sanitiser), at
/// most `limit` characters.
private func shown(_ text: String, limit: Int = 120) -> String {
    let safe = PlainText.clean(text)
    return safe.count > limit ? String(safe.prefix(limit - 1)) + "…" : safe
}

/// A response read whole (within its limit).
public struct FetchedBody: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var bytes: [UInt8]
    /// The URL the body came from, after redirects.
    public var url: String
    /// Set when the server could not be reached and the disk cache's copy stands in (see
    /// `fetchCached`'s `offline`): when that copy was fetched, seconds since 1970.
    public var offlineSince: Int64? = nil
    /// When the server last said this body is current, seconds since 1970: a kept copy's
    /// response time (its last 304 included); nil for a body that just came from the
    /// server. What a person did since then stands over the body (a like it does not show).
    public var fetchedAt: Int64? = nil

    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// HTTP GETs and POSTs through async-http-client, on one event-loop thread of its own at
/// low priority (below the frame loop, as the decoding workers are). Nothing here is
/// called from the main thread's frame: callers hand it work from tasks, and results come
/// back through a ``Mailbox``.
///
/// Redirects are followed here, not by the client: at most ``maximumRedirects``, never to
/// a scheme other than http(s), never in a loop, never for a POST (a
/// ``FetchError/redirectedWrite(to:)``). The token goes only to its ``Credential``'s origin,
/// hop by hop. TLS 1.2 is the oldest spoken. Every body is read as a stream and
/// abandoned past its limit; a whole request has a deadline, so a server that trickles
/// (slow loris) ends in a time-out, not a hang.
public final class HTTPFetcher: Sendable {
    public static let maximumRedirects = 5
    let client: HTTPClient
    /// The same, but a connection that cannot be made fails at once instead of being tried
    /// again until the connect timeout (5 s): for requests that have a kept copy to fall back
    /// on and a caller that retries by itself (a feed's pages), so a start with no network
    /// shows the kept pages at once (issue 26).
    let failFastClient: HTTPClient
    /// Set by ``shutdown()``: later fetches fail at once as cancelled.
    let closed = Lock(false)

    /// One event-loop thread for every client of the process, at low priority, never shut
    /// down: a transfer worker that starts a request while the app is quitting then gets an
    /// error from the closed client, never a loop that is gone (NIO traps on that).
    static let group: MultiThreadedEventLoopGroup = {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // The event loop waits on sockets and copies bytes: it runs below the frame loop.
        group.next().execute { _ = WorkerPriority.low.applyToCurrentThread() }
        return group
    }()
    /// The token and the one origin it may be sent to.
    let credential: Credential?
    let userAgent: String
    /// Body bytes received, all requests (what the report counts as network bytes).
    let received = Lock(0)
    let requests = Lock(0)
    /// Requests that resumed a body after a dropped connection (``fetchResuming(_:limit:deadline:maximumResumes:onBytes:)``).
    let resumed = Lock(0)
    /// Where ``fetchCached(_:headers:limit:deadline:authorized:resuming:onBytes:)`` keeps
    /// responses between runs (nil: it fetches every time).
    public let cache: DiskCache?
    /// Seconds since 1970, for the cache's ages (a test's own clock).
    let now: @Sendable () -> Int64
    let cacheTally = Lock(CacheTally())
    /// What each origin may be sent: its request bound and any pause it asked for.
    let gate: OriginGate

    /// `credential`: its token sent as `Authorization: Bearer` to its origin only (requests
    /// made `authorized`, each hop checked). `trust`: a PEM
    /// certificate to trust besides the system's (a server of your own, a test's).
    /// `cache`: responses kept between runs as RFC 9111 allows; `now`: the clock their ages
    /// are read on (seconds since 1970). `connectionsPerHost`: HTTP/1.1 connections open to
    /// one host at once — at least the loading pipeline's slots
    /// (`TransferPolicy.connections`), or the transfers past it wait in the client's own
    /// first-come queue, where no priority reaches them (HTTP/2 carries them all as streams
    /// of one connection).
    public init(credential: Credential? = nil, userAgent: String = "destinations", trust: String? = nil, connectTimeout: Duration = .seconds(5),
                connectionsPerHost: Int = TransferPolicy().connections, cache: DiskCache? = nil, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
                bound: RequestBound = RequestBound()) throws {
        gate = OriginGate(bound: bound)
        self.cache = cache
        self.now = now
        var tls = TLSConfiguration.makeClientConfiguration()
        // TLS 1.0 and 1.1 are deprecated (RFC 8996): a server that offers nothing newer gets
        // no request, and no token (issue 43; curl refuses them too).
        tls.minimumTLSVersion = .tlsv12
        if let trust {
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(trust))]
            } catch {
                throw FetchError.badURL("the certificate \(trust) cannot be read (\(error))")
            }
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .nanoseconds(connectTimeout.nanoseconds), read: .seconds(15)))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
        configuration.httpVersion = .automatic
        client = HTTPClient(eventLoopGroupProvider: .shared(Self.group), configuration: configuration)
        configuration.connectionPool.retryConnectionEstablishment = false
        failFastClient = HTTPClient(eventLoopGroupProvider: .shared(Self.group), configuration: configuration)
        self.credential = credential
        self.userAgent = userAgent
    }

    /// Ends every request under way and closes the connections; later fetches fail as
    /// cancelled. Call once, at the end (and before the fetcher goes away).
    public func shutdown() {
        guard !closed.withLock({ closed in defer { closed = true }; return closed }) else { return }
        try? client.syncShutdown()
        try? failFastClient.syncShutdown()
    }

    deinit { shutdown() }

    public var bytesReceived: Int { received.withLock { $0 } }
    public var requestCount: Int { requests.withLock { $0 } }
    public var resumeCount: Int { resumed.withLock { $0 } }
    /// Requests that waited for the per-origin bound so far.
    public var requestsHeldByBound: Int { gate.heldByBound }

    /// GETs (or POSTs) `url`, following redirects, and reads the body whole up to `limit`
    /// bytes within `deadline`; `onBytes` hears of every chunk as it arrives (progress,
    /// bytes after a cancel). Task cancellation ends the transfer and closes its
    /// connection. Non-2xx answers other than 304 and 206 are errors with the server's
    /// message when it sent one.
    /// `failFast`: a connection that cannot be made fails at once (no retries until the
    /// connect timeout), for a caller with a fallback of its own.
    public func fetch(_ url: String, method: FetchMethod = .get, headers extra: [(String, String)] = [], limit: Int, deadline: Duration,
                      authorized: Bool = false, failFast: Bool = false,
                      onBytes: (@Sendable (_ bytes: Int, _ declaredLength: Int?) -> Void)? = nil) async throws(FetchError) -> FetchedBody {
        let started = ContinuousClock.now
        let head = try await open(url, method: method, headers: extra, until: started + deadline, authorized: authorized, failFast: failFast)
        var bytes: [UInt8] = []
        try await readBody(head.response, limit: limit, host: head.host, until: started + deadline, onBytes: onBytes, into: &bytes)
        let status = Int(head.response.status.code)
        guard (200..<300).contains(status) || status == 304 else {
            throw statusError(status, headers: head.response.headers.map { ($0.name, $0.value) }, body: bytes, url: head.url)
        }
        return FetchedBody(status: status, headers: head.response.headers.map { ($0.name, $0.value) }, bytes: bytes, url: head.url)
    }

    /// A response's head, redirects followed: what ``fetch(_:method:headers:limit:deadline:authorized:onBytes:)``
    /// and ``fetchResuming(_:limit:deadline:maximumResumes:onBytes:)`` read a body from.
    struct OpenResponse {
        let response: HTTPClientResponse
        /// After redirects.
        let url: String
        let host: String
    }

    func open(_ url: String, method: FetchMethod, headers extra: [(String, String)], until deadline: ContinuousClock.Instant,
                      authorized: Bool, failFast: Bool = false) async throws(FetchError) -> OpenResponse {
        if closed.withLock({ $0 }) { throw .cancelled }
        var current = url
        var seen: Set<String> = [url]
        for _ in 0...Self.maximumRedirects {
            guard let parsed = URL(string: current), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = parsed.host, !host.isEmpty else { throw current == url ? .badURL(current) : .redirectNotWeb(current) }
            var request = HTTPClientRequest(url: current)
            request.method = method == .get ? .GET : .POST
            if let form = method.formBody {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: form))
            }
            request.headers.add(name: "User-Agent", value: userAgent)
            if authorized, let authorization = credential?.authorization(for: current) {
                request.headers.add(name: "Authorization", value: authorization)
            }
            for (name, value) in extra { request.headers.add(name: name, value: value) }
            try await gate.admit(current)
            requests.withLock { $0 += 1 }
            let response: HTTPClientResponse
            do {
                let left = deadline - ContinuousClock.now
                response = try await (failFast ? failFastClient : client).execute(request, timeout: .nanoseconds(max(left, .milliseconds(1)).nanoseconds))
            } catch {
                throw Self.translate(error, host: host)
            }
            let status = Int(response.status.code)
            if (300..<400).contains(status), status != 304, let location = response.headers.first(name: "Location") {
                // Drain nothing: the connection is dropped with the response.
                guard let next = URL(string: location, relativeTo: parsed)?.absoluteString else { throw .redirectNotWeb(location) }
                guard WebTarget.resolve(location, against: current) != nil else { throw .redirectNotWeb(next) }
                // A write is not replayed where the server points (curl and browsers turn a
                // 301/302/303 POST into a GET, and keep it a POST for 307/308: neither is a like).
                if method != .get { throw .redirectedWrite(to: next) }
                guard seen.insert(next).inserted else { throw .tooManyRedirects }
                current = next
                continue
            }
            return OpenResponse(response: response, url: current, host: host)
        }
        throw .tooManyRedirects
    }

    /// Appends `response`'s body to `bytes` as it streams in, up to `limit` bytes in all. A
    /// connection that drops before the end throws ``FetchError/cutShort(received:)`` with
    /// what arrived kept in `bytes` (what a resume continues from).
    func readBody(_ response: HTTPClientResponse, limit: Int, host: String, until deadline: ContinuousClock.Instant,
                          onBytes: (@Sendable (Int, Int?) -> Void)?, into bytes: inout [UInt8]) async throws(FetchError) {
        let declared = response.headers.first(name: "Content-Length").flatMap(Int.init)
        // Compared without adding: a declared length near Int.max must not overflow.
        if let declared, declared < 0 || declared > limit - bytes.count { throw .tooLarge(limit: limit) }
        // Room once, for what was declared: an array grown by doubling holds up to twice its
        // bytes while it copies (an endless body would take twice its cap).
        if let declared, declared > 0 { bytes.reserveCapacity(bytes.count + declared) }
        do {
            for try await chunk in response.body {
                received.withLock { $0 += chunk.readableBytes }
                onBytes?(chunk.readableBytes, declared)
                guard bytes.count + chunk.readableBytes <= limit else { throw FetchError.tooLarge(limit: limit) }
                bytes.append(contentsOf: chunk.readableBytesView)
                // The client's deadline covers the head; the body is held to it here (a
                // server that trickles a byte a second never trips the read time-out).
                if ContinuousClock.now > deadline { throw FetchError.timedOut(host: host) }
            }
        } catch let error as FetchError {
            throw error
        } catch {
            if Task.isCancelled { throw .cancelled }
            let translated = Self.translate(error, host: host)
            if case .unreachable = translated { throw .cutShort(received: bytes.count) }
            if case .cutShort = translated { throw .cutShort(received: bytes.count) }
            throw translated
        }
    }

    static func translate(_ error: any Error, host: String) -> FetchError {
        if error is CancellationError || Task.isCancelled { return .cancelled }
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            let text = "\(error)"
            // What the person can act on first, then the library's words in full.
            let why = text.contains("PROTOCOL_VERSION") || text.contains("UNSUPPORTED_PROTOCOL")
                ? "the server speaks no TLS version this app accepts (1.2 or newer)"
                : text.contains("ostname") ? "its certificate is not for this host"
                : text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") ? "its certificate is not trusted"
                : "the TLS handshake failed"
            return .insecure(host: host, reason: "\(why): \(text)")
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return .timedOut(host: host)
            case .cancelled: return .cancelled
            case .remoteConnectionClosed, .bodyLengthMismatch: return .cutShort(received: 0)
            default: return .unreachable(host: host, reason: "\(client)")
            }
        }
        let text = "\(error)"
        if text.contains("connectTimeout") || text.contains("Timeout") { return .timedOut(host: host) }
        if text.contains("refused") || text.contains("ECONNREFUSED") { return .unreachable(host: host, reason: "connection refused") }
        return .unreachable(host: host, reason: shown(text))
    }

    /// What a non-2xx answer from `url` is: ``FetchError/throttled(_:retryAfter:message:)``
    /// for a 429 or 503 that said when to come back (and until then its origin is asked
    /// nothing: ``OriginGate/pause(_:status:for:)``), else ``FetchError/status(_:message:)``.
    func statusError(_ status: Int, headers: [(String, String)], body: [UInt8], url: String) -> FetchError {
        if status == 429 || status == 503,
           let value = headers.first(where: { $0.0.caseInsensitiveCompare("Retry-After") == .orderedSame })?.1,
           let wait = FetchError.retryAfter(value, now: now()) {
            gate.pause(url, status: status, for: wait)
            return .throttled(status, retryAfter: wait, message: Self.serverMessage(body))
        }
        return .status(status, message: Self.serverMessage(body))
    }

    /// The `error` of a JSON error body, or nil.
    static func serverMessage(_ bytes: [UInt8]) -> String? {
        struct ErrorBody: Decodable { let error: String }
        guard let message = try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes)).error else { return nil }
        return shown(message)
    }
}

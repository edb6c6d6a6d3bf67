import FeedFormat
import Foundation
import HTTPCache

/// What the disk cache spared the network, for the report's `cache` figures.
public struct CacheTally: Sendable, Equatable {
    /// Requests answered from the disk with no request at all (fresh).
    public var diskHits = 0
    /// Revalidations the server answered 304: the stored body used, no body sent.
    public var revalidated304 = 0
    /// Stale copies shown: inside `stale-while-revalidate` (refreshed behind), or
    /// `stale-if-error` when the server failed.
    public var staleServed = 0
    /// Body bytes the network did not carry (fresh hits, 304s, stale copies).
    public var bytesSaved = 0
    /// Stored copies used because the server could not be reached at all (offline).
    public var offlineServed = 0

    /// All zero.
    public init() {}
}

extension HTTPFetcher {
    /// What the cache spared so far.
    public var cacheFigures: CacheTally { cacheTally.withLock { $0 } }

    /// A GET through the disk cache, as RFC 9111 says a private cache behaves: a fresh
    /// stored response is used without a request; one inside `stale-while-revalidate` is
    /// used at once and refreshed in the background; otherwise the server is asked with the
    /// stored validators, and a 304 brings the stored body back (its fields updated); a
    /// server that fails (a 5xx, no answer) inside `stale-if-error` gets the stored copy
    /// used instead. What the server sends is stored unless it says `no-store`. Without a
    /// cache this is ``fetch(_:method:headers:limit:deadline:authorized:onBytes:)``
    /// (or, `resuming`, ``fetchResuming(_:limit:deadline:maximumResumes:onBytes:)``).
    ///
    /// `offline`: when the server cannot be reached at all (no connection, no answer: not a
    /// status it sent), a stored copy of any age stands in, marked with
    /// ``FetchedBody/offlineSince``: beyond RFC 9111's rules, what a person who browses the
    /// same feed every day expects of a client with no network (a browser's offline mode).
    /// A connection that cannot be made then fails at once, cache or none: the callers that
    /// pass it (the pager) retry on their own schedule (`RetryPolicy`), and a connection pool
    /// retrying beneath them made a refused first page take 16 s to say so, not 2.
    public func fetchCached(_ url: String, headers extra: [(String, String)] = [], limit: Int, deadline: Duration, authorized: Bool = false,
                            resuming: Bool = false, offline: Bool = false,
                            onBytes: (@Sendable (_ bytes: Int, _ declaredLength: Int?) -> Void)? = nil) async throws(FetchError) -> FetchedBody {
        guard let cache else {
            return resuming ? try await fetchResuming(url, limit: limit, deadline: deadline, onBytes: onBytes)
                            : try await fetch(url, headers: extra, limit: limit, deadline: deadline, authorized: authorized,
                                              failFast: offline, onBytes: onBytes)
        }
        // The request's fields as the server sees them, for `Vary` (the cache keeps a digest
        // of a credential, never the credential).
        let request = HTTPFields(extra + (authorized ? credential?.authorization(for: url).map { [("Authorization", $0)] } ?? [] : []))
        let sent = now()
        guard let stored = cache.lookup(url: url, request: request) else {
            let answer = resuming ? try await fetchResuming(url, limit: limit, deadline: deadline, onBytes: onBytes)
                                  : try await fetch(url, headers: extra, limit: limit, deadline: deadline, authorized: authorized,
                                                    failFast: offline, onBytes: onBytes)
            keep(answer, for: url, request: request, sent: sent)
            return answer
        }
        switch CachePolicy.use(status: stored.status, response: stored.fields, requestTime: stored.requestTime, responseTime: stored.responseTime, now: sent) {
        case .fresh:
            cacheTally.withLock { $0.diskHits += 1; $0.bytesSaved += stored.body.count }
            return Self.body(stored)
        case .staleWhileRevalidate:
            cacheTally.withLock { $0.staleServed += 1; $0.bytesSaved += stored.body.count }
            let conditional = CachePolicy.conditionalFields(for: stored.fields)
            Task.detached(priority: .background) { [self] in
                _ = try? await self.revalidate(url, stored: stored, conditional: conditional, extra: extra, request: request,
                                               limit: limit, deadline: deadline, authorized: authorized)
            }
            return Self.body(stored)
        case .revalidate(let conditional):
            do {
                // With a kept copy to show offline, a server that cannot be reached fails at once.
                return try await revalidate(url, stored: stored, conditional: conditional, extra: extra, request: request,
                                            limit: limit, deadline: deadline, authorized: authorized, failFast: offline, onBytes: onBytes)
            } catch where error.isTransient && CachePolicy.mayServeOnError(status: stored.status, response: stored.fields,
                                                                          requestTime: stored.requestTime, responseTime: stored.responseTime, now: now()) {
                cacheTally.withLock { $0.staleServed += 1; $0.bytesSaved += stored.body.count }
                return Self.body(stored)
            } catch where offline && error.isUnreachable {
                cacheTally.withLock { $0.offlineServed += 1; $0.bytesSaved += stored.body.count }
                var body = Self.body(stored)
                body.offlineSince = stored.responseTime
                return body
            }
        }
    }

    /// The kept response for a GET of `url` if RFC 9111 lets it be used without asking the
    /// server (fresh), counted as a disk hit; nil otherwise (nothing kept, or stale: it is
    /// then left for ``fetchCached(_:headers:limit:deadline:authorized:resuming:offline:onBytes:)``).
    public func keptFresh(_ url: String, headers extra: [(String, String)] = [], authorized: Bool = false) -> FetchedBody? {
        guard let cache else { return nil }
        // The request's fields as the server sees them, for `Vary` (the cache keeps a digest
        // of a credential, never the credential).
        let request = HTTPFields(extra + (authorized ? credential?.authorization(for: url).map { [("Authorization", $0)] } ?? [] : []))
        guard let stored = cache.head(url: url, request: request),
              case .fresh = CachePolicy.use(status: stored.status, response: stored.fields, requestTime: stored.requestTime,
                                            responseTime: stored.responseTime, now: now()),
              let used = cache.lookup(url: url, request: request) else { return nil }
        cacheTally.withLock { $0.diskHits += 1; $0.bytesSaved += used.body.count }
        return Self.body(used)
    }

    /// Asks the server with the stored validators: a 304 updates and returns the stored
    /// response, anything else replaces it.
    private func revalidate(_ url: String, stored: DiskCache.Entry, conditional: HTTPFields, extra: [(String, String)], request: HTTPFields,
                            limit: Int, deadline: Duration, authorized: Bool, failFast: Bool = false,
                            onBytes: (@Sendable (Int, Int?) -> Void)? = nil) async throws(FetchError) -> FetchedBody {
        let sent = now()
        let answer = try await fetch(url, headers: extra + conditional.fields.map { ($0.name, $0.value) }, limit: limit, deadline: deadline,
                                     authorized: authorized, failFast: failFast, onBytes: onBytes)
        guard answer.status == 304 else {
            keep(answer, for: url, request: request, sent: sent)
            return answer
        }
        cacheTally.withLock { $0.revalidated304 += 1; $0.bytesSaved += stored.body.count }
        let updated = cache?.update(url: url, request: request, notModified: HTTPFields(answer.headers), requestTime: sent, responseTime: now())
        return Self.body(updated ?? stored)
    }

    private func keep(_ answer: FetchedBody, for url: String, request: HTTPFields, sent: Int64) {
        cache?.store(url: url, request: request, status: answer.status, response: HTTPFields(answer.headers),
                     requestTime: sent, responseTime: now(), body: answer.bytes)
    }

    private static func body(_ entry: DiskCache.Entry) -> FetchedBody {
        FetchedBody(status: entry.status, headers: entry.fields.fields.map { ($0.name, $0.value) }, bytes: entry.body, url: entry.url,
                    fetchedAt: entry.responseTime)
    }
}

extension FetchError {
    /// The server was not reached, or did not answer: no network, as opposed to an answer.
    public var isUnreachable: Bool {
        switch self {
        case .unreachable, .timedOut: true
        default: false
        }
    }
}

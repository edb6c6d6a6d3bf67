/// What RFC 9111 lets a private cache do with a stored response: store it at all, use it
/// as it is, use it while it is revalidated in the background, use it when the server
/// fails, or ask the server first. Pure: every time is passed in (seconds since 1970), so
/// each rule is tested exactly.
public enum CachePolicy {
    /// Status codes a cache may store and give a heuristic freshness (RFC 9110, 15.1).
    public static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// What a stored response may be used for now.
    public enum Use: Sendable, Equatable {
        /// Fresh: use it, ask nothing.
        case fresh
        /// Stale within its `stale-while-revalidate` window: use it now, revalidate in the background.
        case staleWhileRevalidate
        /// Ask the server first (with these conditional fields, if it has validators).
        case revalidate(HTTPFields)
    }

    /// Whether a response to a GET may be written to the cache (RFC 9111, section 3):
    /// a final status the cache understands, no `no-store`, not `Vary: *`.
    public static func isStorable(status: Int, response: HTTPFields) -> Bool {
        guard heuristicallyCacheable.contains(status) || status == 206 else { return false }
        if status == 206 { return false }  // partial bodies are not combined here; the client resumes instead
        if CacheControl(parsing: response.values("cache-control")).noStore { return false }
        if varyNames(response) == nil { return false }
        return true
    }

    /// Seconds the response is fresh for, counted from its generation (section 4.2.1):
    /// `max-age`, else `Expires` − `Date`, else 10 % of `Date` − `Last-Modified` for a status
    /// that allows a heuristic, else 0.
    public static func freshnessLifetime(status: Int, response: HTTPFields, receivedAt responseTime: Int64) -> Int64 {
        let control = CacheControl(parsing: response.values("cache-control"))
        if let maxAge = control.maxAge { return maxAge }
        let date = response["date"].flatMap(HTTPDate.parse) ?? responseTime
        if let expires = response["expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }  // "0", garbage: already expired
            return max(0, expiry - date)
        }
        if heuristicallyCacheable.contains(status) || control.isPublic,
           let modified = response["last-modified"].flatMap(HTTPDate.parse), modified < date {
            return (date - modified) / 10
        }
        return 0
    }

    /// The response's age now (section 4.2.3): its `Age`, the delay of the exchange and the
    /// time it has spent in the cache.
    public static func currentAge(response: HTTPFields, requestTime: Int64, responseTime: Int64, now: Int64) -> Int64 {
        let date = response["date"].flatMap(HTTPDate.parse) ?? responseTime
        // delta-seconds past 2^31 count as 2^31 (RFC 9111, 1.2.2): a hostile Age cannot overflow the sum.
        let ageValue = response["age"].map { CacheControl.seconds($0.trimmingSpaces) } ?? 0
        let apparentAge = max(0, responseTime - date)
        let responseDelay = max(0, responseTime - requestTime)
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now - responseTime)
    }

    /// What the stored response may be used for at `now`.
    public static func use(status: Int, response: HTTPFields, requestTime: Int64, responseTime: Int64, now: Int64) -> Use {
        let control = CacheControl(parsing: response.values("cache-control"))
        let lifetime = freshnessLifetime(status: status, response: response, receivedAt: responseTime)
        let age = currentAge(response: response, requestTime: requestTime, responseTime: responseTime, now: now)
        if !control.noCache && lifetime > age { return .fresh }
        if !control.noCache && !control.mustRevalidate, let window = control.staleWhileRevalidate, age - lifetime <= window {
            return .staleWhileRevalidate
        }
        return .revalidate(conditionalFields(for: response))
    }

    /// Whether the stored response may stand in for a failed request at `now` (its
    /// `stale-if-error` window; never with `must-revalidate` or `no-cache`).
    public static func mayServeOnError(status: Int, response: HTTPFields, requestTime: Int64, responseTime: Int64, now: Int64) -> Bool {
        let control = CacheControl(parsing: response.values("cache-control"))
        guard !control.mustRevalidate, !control.noCache, let window = control.staleIfError else { return false }
        let lifetime = freshnessLifetime(status: status, response: response, receivedAt: responseTime)
        let age = currentAge(response: response, requestTime: requestTime, responseTime: responseTime, now: now)
        return age - lifetime <= window
    }

    /// `If-None-Match` from the `ETag`, `If-Modified-Since` from `Last-Modified` (both when
    /// both are there; none when neither is: the request is then an ordinary one).
    public static func conditionalFields(for response: HTTPFields) -> HTTPFields {
        var fields = HTTPFields()
        if let tag = response["etag"] { fields.set("if-none-match", tag) }
        if let modified = response["last-modified"] { fields.set("if-modified-since", modified) }
        return fields
    }

    /// The stored fields after a 304 (section 3.2): each field the 304 carries replaces the
    /// stored one, but for those that describe the stored body.
    public static func updating(_ stored: HTTPFields, with notModified: HTTPFields) -> HTTPFields {
        var updated = stored
        let kept: Set<String> = ["content-length", "content-encoding", "content-range", "transfer-encoding", "content-type"]
        var replaced = Set<String>()
        for field in notModified.fields where !kept.contains(field.name) {
            if replaced.insert(field.name).inserted { updated.set(field.name, nil) }
            updated = HTTPFields(updated.fields.map { ($0.name, $0.value) } + [(field.name, field.value)])
        }
        return updated
    }

    /// The request fields `Vary` names, lowercased and sorted; nil for `Vary: *` (the
    /// response can never be reused). Empty when the response does not vary.
    public static func varyNames(_ response: HTTPFields) -> [String]? {
        let names = response.values("vary").flatMap { $0.split(separator: ",") }.map { String($0).trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        if names.contains("*") { return nil }
        return Array(Set(names)).sorted()
    }

    /// The secondary key of a request for a response that varies on `names`: each named
    /// field's values, joined; two requests share a stored response only when theirs match.
    public static func secondaryKey(names: [String], request: HTTPFields) -> String {
        names.map { "\($0)=\(request.values($0).joined(separator: ","))" }.joined(separator: "\n")
    }
}

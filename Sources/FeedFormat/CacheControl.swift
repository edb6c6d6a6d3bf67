/// A `Cache-Control` header's directives (RFC 9111, section 5.2), as a private cache reads
/// them: names case-insensitive, values tokens or quoted strings, the first of a repeated
/// directive kept (section 4.2.1), an invalid delta-seconds value read as 0 (stale at once:
/// "a cache SHOULD consider such a response stale").
public struct CacheControl: Sendable, Equatable {
    /// `max-age`: seconds the response stays fresh, counted from its generation.
    public var maxAge: Int64?
    /// `no-store`: never written to the cache.
    public var noStore = false
    /// `no-cache`: stored, but revalidated before every use.
    public var noCache = false
    /// `must-revalidate`: once stale, never used without revalidation (not even on an error).
    public var mustRevalidate = false
    /// `immutable` (RFC 8246): not revalidated while fresh.
    public var immutable = false
    /// `stale-while-revalidate` (RFC 5861): seconds past freshness the stale copy may be
    /// shown while a revalidation runs in the background.
    public var staleWhileRevalidate: Int64?
    /// `stale-if-error` (RFC 5861): seconds past freshness the stale copy may be shown when
    /// the server fails (a 5xx or no answer).
    public var staleIfError: Int64?
    /// `public`: cacheable even where it would not be by default.
    public var isPublic = false

    /// No directive.
    public init() {}

    /// The directives of one or more `Cache-Control` field values (several lines are one
    /// comma-separated list). Unknown directives are ignored, as RFC 9111 says.
    public init(parsing values: [String]) {
        var seen = Set<String>()
        for value in values {
            for (name, argument) in Self.directives(value) where seen.insert(name).inserted {
                switch name {
                case "max-age": maxAge = Self.seconds(argument)
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                case "immutable": immutable = true
                case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(argument)
                case "stale-if-error": staleIfError = Self.seconds(argument)
                case "public": isPublic = true
                default: break
                }
            }
        }
    }

    /// One header value's directives, names lowercased, quoted arguments unquoted.
    static func directives(_ value: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var name = "", argument: String?, inQuotes = false, escaped = false, afterEquals = false
        func finish() {
            let trimmed = name.trimmingSpaces.lowercased()
            if !trimmed.isEmpty { result.append((trimmed, argument?.trimmingSpaces)) }
            name = ""; argument = nil; afterEquals = false
        }
        for character in value {
            if inQuotes {
                if escaped { argument!.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inQuotes = false } else { argument!.append(character) }
            } else if character == "," {
                finish()
            } else if character == "=" && !afterEquals {
                afterEquals = true
                argument = ""
            } else if character == "\"" && afterEquals && (argument ?? "").trimmingSpaces.isEmpty {
                inQuotes = true
                argument = ""
            } else if afterEquals {
                argument!.append(character)
            } else {
                name.append(character)
            }
        }
        finish()
        return result
    }

    /// delta-seconds: digits only; anything else is 0 (stale), a value too large is capped
    /// at 2^31 (section 1.2.2).
    static func seconds(_ argument: String?) -> Int64 {
        guard let argument, !argument.isEmpty, argument.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
        return Int64(argument.prefix(11)).map { min($0, 1 << 31) } ?? (1 << 31)
    }
}

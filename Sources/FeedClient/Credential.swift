import Foundation

/// Where a request goes, as the web's security model counts it: scheme, host and port
/// (RFC 6454). A credential is good for one origin only.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// Lowercased, without brackets for IPv6.
    public let host: String
    /// The port named, or the scheme's own (80, 443).
    public let port: Int

    /// The origin of an absolute http(s) URL; nil for anything else.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `localhost`, `127.0.0.0/8` or `::1`: a server on this machine, where a token sent in
    /// the clear crosses no network.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == (scheme == "https" ? 443 : 80) ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
    }
}

/// A bearer token and the one origin it was given for (issue 43): sent as
/// `Authorization: Bearer` to that origin only — never after a redirect to another origin,
/// never to a `Link` target elsewhere, never from https down to http (the scheme is part of
/// the origin). What curl does by default and what the Fetch standard has browsers do.
public struct Credential: Sendable {
    public let token: String
    public let origin: Origin

    /// Why a token cannot be used for a feed.
    public enum Refusal: Error, Sendable, CustomStringConvertible {
        case notAWebURL
        /// Plain http to a host that is not loopback: anyone on the path reads the token.
        case cleartext(Origin)

        public var description: String {
            switch self {
            case .notAWebURL: "a token goes with an http(s) feed URL"
            case .cleartext(let origin):
                "\(origin) is plain http: the token would cross the network readable by anyone on the way; use https, or pass --allow-http-token if you accept that"
            }
        }
    }

    /// A token for the origin of `url`. Over plain http it is refused unless the host is
    /// loopback or `allowCleartext` says the person accepts it.
    public init(token: String, for url: String, allowCleartext: Bool = false) throws(Refusal) {
        guard let origin = Origin(url: url) else { throw .notAWebURL }
        guard origin.scheme == "https" || origin.isLoopback || allowCleartext else { throw .cleartext(origin) }
        self.token = token
        self.origin = origin
    }

    /// The `Authorization` value for a request to `url`, or nil when `url` is not this
    /// credential's origin.
    public func authorization(for url: String) -> String? {
        Origin(url: url) == origin ? "Bearer \(token)" : nil
    }
}

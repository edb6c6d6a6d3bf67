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

/// Where a redirect's `Location` or a `Link` target points, made absolute (RFC 3986 § 5:
/// relative to the URL of the response that named it). Pure and fuzzed: a server chooses
/// the text.
public enum WebTarget {
    /// `target` as an absolute http(s) URL with a host, relative to `base`; nil for
    /// anything else (another scheme, no host, not a URL).
    public static func resolve(_ target: String, against base: String) -> String? {
        guard let resolved = URL(string: target, relativeTo: URL(string: base))?.absoluteURL,
              let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = resolved.host, !host.isEmpty else { return nil }
        return resolved.absoluteString
    }
}

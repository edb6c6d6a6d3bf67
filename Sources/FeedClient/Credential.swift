import FeedFormat
import Foundation

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

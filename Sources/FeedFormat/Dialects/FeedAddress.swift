import Foundation

/// What a person types after `--feed`, read as the timeline they mean (issue 45):
/// - a server's name, `mastodon.social` (or `https://host` with no path): its public
///   timeline, pictures only (`only_media=true`);
/// - `@user@server`: that account's statuses with pictures (its id is looked up first,
///   ``accountLookupURL``);
/// - `#tag@server`: the tag's timeline, pictures only;
/// - `home@server`, `local@server`: the home timeline (with a token) or the server's local one;
/// - a full URL of any timeline endpoint (public, local, tag, list, home, an account's
///   statuses; Pixelfed's Mastodon-compatible API the same): as it is.
public enum FeedAddress: Sendable, Equatable {
    /// A timeline's URL, ready to page.
    case timeline(String)
    /// An account's statuses, once its id is known: ask ``accountLookupURL`` first, then
    /// ``accountStatusesURL(id:)``.
    case account(user: String, server: String)

    /// Why `text` names no timeline.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `text`; throws a message saying what forms are understood.
    public static func parse(_ text: String) throws(Refusal) -> FeedAddress {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.contains("://") {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty else { throw Refusal(description: "\(PlainText.clean(text)) is not an http or https URL") }
            if url.path.isEmpty || url.path == "/" { return .timeline(origin(of: url) + "/api/v1/timelines/public?only_media=true") }
            return .timeline(text)
        }
        if text.hasPrefix("@") {
            let parts = text.dropFirst().split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, isName(parts[0]), let server = server(parts[1]) else { throw refusal(text) }
            return .account(user: String(parts[0]), server: server)
        }
        if text.hasPrefix("#") {
            let parts = text.dropFirst().split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, isName(parts[0]), let server = server(parts[1]),
                  let tag = String(parts[0]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { throw refusal(text) }
            return .timeline("\(scheme(server))://\(server)/api/v1/timelines/tag/\(tag)?only_media=true")
        }
        if let at = text.firstIndex(of: "@") {
            let kind = text[..<at].lowercased(), rest = text[text.index(after: at)...]
            guard let server = server(rest) else { throw refusal(text) }
            switch kind {
            case "home": return .timeline("\(scheme(server))://\(server)/api/v1/timelines/home")
            case "local": return .timeline("\(scheme(server))://\(server)/api/v1/timelines/public?local=true&only_media=true")
            case "public": return .timeline("\(scheme(server))://\(server)/api/v1/timelines/public?only_media=true")
            default: throw refusal(text)
            }
        }
        guard let server = server(Substring(text)) else { throw refusal(text) }
        return .timeline("\(scheme(server))://\(server)/api/v1/timelines/public?only_media=true")
    }

    /// Where an account's id is found: `GET /api/v1/accounts/lookup?acct=user`.
    public var accountLookupURL: String? {
        guard case .account(let user, let server) = self, let name = user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
        return "\(Self.scheme(server))://\(server)/api/v1/accounts/lookup?acct=\(name)"
    }

    /// The account's statuses with pictures, once its id is known.
    public func accountStatusesURL(id: String) -> String? {
        guard case .account(_, let server) = self, let id = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics), !id.isEmpty else { return nil }
        return "\(Self.scheme(server))://\(server)/api/v1/accounts/\(id)/statuses?only_media=true&exclude_replies=true"
    }

    /// The `id` of a `GET /api/v1/accounts/lookup` answer (a string, or a number on some servers).
    public static func accountID(in body: [UInt8]) -> String? {
        struct Account: Decodable { let id: FlexibleString }
        guard let id = try? JSONDecoder().decode(Account.self, from: Data(body)).id.text, !id.isEmpty, id.utf8.count <= 64 else { return nil }
        return id
    }

    static func origin(of url: URLComponents) -> String {
        var origin = URLComponents()
        origin.scheme = url.scheme
        origin.host = url.host
        origin.port = url.port
        return origin.string ?? ""
    }

    /// A user or tag name: letters, digits, `_`, `.` and `-` (any script: tags may be Japanese).
    static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
    }

    /// A host name (with an optional port), lowercased; nil for anything else.
    static func server(_ text: Substring) -> String? {
        let lowered = text.lowercased()
        guard !lowered.isEmpty, lowered.count <= 253,
              lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") }),
              lowered.contains(".") || lowered.hasPrefix("localhost"), !lowered.hasPrefix("."), !lowered.hasPrefix("-"),
              !lowered.hasSuffix(".") else { return nil }
        return lowered
    }

    /// https, but plain http for a server on this machine (a server of your own, or a test's:
    /// `127.0.0.1:8080`, `localhost:8080`).
    static func scheme(_ server: String) -> String {
        let host = server.split(separator: ":").first.map(String.init) ?? server
        return host == "127.0.0.1" || host == "localhost" ? "http" : "https"
    }

    static func refusal(_ text: String) -> Refusal {
        Refusal(description: "\(PlainText.clean(text)) names no timeline: give a server (mastodon.social), @user@server, #tag@server, home@server, local@server or a timeline's URL")
    }
}

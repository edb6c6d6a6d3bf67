import Foundation

/// Mastodon's OAuth for a terminal (issue 45, `destinations login`): an app registered with
/// `POST /api/v1/apps`, the person sent to `/oauth/authorize` with the out-of-band redirect
/// (the server shows a code to paste), the code traded at `POST /oauth/token`, the token
/// checked with `GET /api/v1/accounts/verify_credentials` and revoked at `POST /oauth/revoke`.
/// The requests and what their answers say; the HTTP is FeedClient's.
public enum OAuthAnswers {
    /// The redirect that makes the server show the code instead of sending a browser on.
    public static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"
    /// Reading timelines and liking: nothing more is asked.
    public static let scopes = "read write:favourites"

    /// `/oauth/authorize` for `clientID` on `server` (a base URL such as `https://host`).
    public static func authorizeURL(server: String, clientID: String) -> String {
        var components = URLComponents(string: server + "/oauth/authorize")
        components?.queryItems = [URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "scope", value: scopes),
                                  URLQueryItem(name: "redirect_uri", value: outOfBand), URLQueryItem(name: "response_type", value: "code")]
        return components?.string ?? server
    }

    /// The `client_id` and `client_secret` of a `POST /api/v1/apps` answer.
    public static func app(in body: [UInt8]) -> (clientID: String, clientSecret: String)? {
        struct App: Decodable {
            let client_id: String
            let client_secret: String
        }
        guard let app = try? JSONDecoder().decode(App.self, from: Data(body)), isToken(app.client_id), isToken(app.client_secret) else { return nil }
        return (app.client_id, app.client_secret)
    }

    /// The `access_token` of a `POST /oauth/token` answer.
    public static func accessToken(in body: [UInt8]) -> String? {
        struct Token: Decodable { let access_token: String }
        guard let token = try? JSONDecoder().decode(Token.self, from: Data(body)).access_token, isToken(token) else { return nil }
        return token
    }

    /// The `acct` of a `verify_credentials` answer, cleaned.
    public static func account(in body: [UInt8]) -> String? {
        struct Account: Decodable { let acct: String }
        guard let acct = try? JSONDecoder().decode(Account.self, from: Data(body)).acct else { return nil }
        let cleaned = PlainText.clean(String(acct.prefix(200)))
        return cleaned.isEmpty ? nil : cleaned
    }

    /// A token or id a header may carry: printable ASCII, no spaces, at most 4 KiB.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 4096 && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

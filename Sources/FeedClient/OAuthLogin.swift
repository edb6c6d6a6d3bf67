import FeedFormat
import Foundation

/// The network half of `destinations login` and `logout` (``OAuthAnswers`` says what is
/// asked and read): each step one request, through an ``HTTPFetcher`` (its redirect and
/// size rules, and a POST never followed to another host).
public struct OAuthLogin: Sendable {
    /// The server's base URL (`https://host`, or `http://127.0.0.1:port` on this machine).
    public let server: String
    private let fetcher: HTTPFetcher

    /// A login at `server` (a base URL), its requests through `fetcher`.
    public init(server: String, fetcher: HTTPFetcher) {
        self.server = server
        self.fetcher = fetcher
    }

    /// Registers this program as an app; its id and secret.
    public func registerApp() async throws(FetchError) -> (clientID: String, clientSecret: String) {
        let body = try await fetcher.fetch(server + "/api/v1/apps", method: .postForm([
            "client_name": "destinations", "redirect_uris": OAuthAnswers.outOfBand, "scopes": OAuthAnswers.scopes,
        ]), headers: [("Accept", "application/json")], limit: 64 << 10, deadline: .seconds(30)).bytes
        guard let app = OAuthAnswers.app(in: body) else { throw .unexpectedAnswer("an app registration (a client id and secret)") }
        return app
    }

    /// Trades the code the person pasted for a token.
    public func token(code: String, clientID: String, clientSecret: String) async throws(FetchError) -> String {
        let body = try await fetcher.fetch(server + "/oauth/token", method: .postForm([
            "grant_type": "authorization_code", "code": code, "client_id": clientID, "client_secret": clientSecret,
            "redirect_uri": OAuthAnswers.outOfBand, "scope": OAuthAnswers.scopes,
        ]), headers: [("Accept", "application/json")], limit: 64 << 10, deadline: .seconds(30)).bytes
        guard let token = OAuthAnswers.accessToken(in: body) else { throw .unexpectedAnswer("a token") }
        return token
    }

    /// Who the token is for (`acct`), asked of the server with the token (sent only there).
    public func account(token: String) async throws(FetchError) -> String {
        let checking: HTTPFetcher
        do {
            checking = try HTTPFetcher(credential: try Credential(token: token, for: server, allowCleartext: false))
        } catch {
            throw .badURL(server)  // never: a login is over https, or to this machine
        }
        defer { checking.shutdown() }
        let body = try await checking.fetch(server + "/api/v1/accounts/verify_credentials", headers: [("Accept", "application/json")],
                                            limit: 64 << 10, deadline: .seconds(30), authorized: true).bytes
        guard let acct = OAuthAnswers.account(in: body) else { throw .unexpectedAnswer("an account") }
        return acct
    }

    /// Takes the token back (`POST /oauth/revoke`).
    public func revoke(token: String, clientID: String, clientSecret: String) async throws(FetchError) {
        _ = try await fetcher.fetch(server + "/oauth/revoke", method: .postForm([
            "client_id": clientID, "client_secret": clientSecret, "token": token,
        ]), headers: [("Accept", "application/json")], limit: 64 << 10, deadline: .seconds(30))
    }
}

import CoreKit
import Foundation
import HTTPTypes
import Hummingbird

/// Mastodon's OAuth as a terminal client meets it (issue 45: `destinations login` tested on
/// loopback): apps are registered, `/oauth/authorize` shows a code at once (a test server:
/// no one to log in, so it approves), codes are traded for tokens once, tokens are checked
/// and revoked. The home timeline needs one of these tokens (or `--token`).
struct OAuthRoutes: Sendable {
    /// Apps by client id (their secrets), codes waiting (their client), tokens given and not revoked.
    private let state = Lock<(apps: [String: String], codes: [String: String], tokens: Set<String>)>(([:], [:], []))

    func add(to router: Router<BasicRequestContext>) {
        router.post("api/v1/apps") { request, _ in
            let form = try await Self.form(request)
            guard form["redirect_uris"] != nil else { return Self.json(.unprocessableContent, ["error": "redirect_uris is missing"]) }
            let id = Self.random(), secret = Self.random()
            state.withLock { $0.apps[id] = secret }
            return Self.json(.ok, ["id": "1", "name": form["client_name"] ?? "app", "client_id": id, "client_secret": secret,
                                   "redirect_uri": form["redirect_uris"] ?? ""])
        }
        router.get("oauth/authorize") { request, _ in
            let query = request.uri.queryParameters
            let client = query["client_id"].map(String.init) ?? ""
            guard state.withLock({ $0.apps[client] != nil }), query["response_type"] == "code" else {
                return Response(status: .badRequest, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "unknown client\n")))
            }
            let code = Self.random()
            state.withLock { $0.codes[code] = client }
            let page = "<!DOCTYPE html><html><body><p>Copy this code and paste it into the application:</p><code class=\"oauth-code\">\(code)</code></body></html>\n"
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.post("oauth/token") { request, _ in
            let form = try await Self.form(request)
            let client = form["client_id"] ?? "", code = form["code"] ?? ""
            let token: String? = state.withLock { state in
                guard form["grant_type"] == "authorization_code", let secret = state.apps[client], secret == form["client_secret"],
                      state.codes.removeValue(forKey: code) == client else { return nil }
                let token = Self.random()
                state.tokens.insert(token)
                return token
            }
            guard let token else { return Self.json(.badRequest, ["error": "invalid_grant"]) }
            return Self.json(.ok, ["access_token": token, "token_type": "Bearer", "scope": form["scope"] ?? "read"])
        }
        router.post("oauth/revoke") { request, _ in
            let form = try await Self.form(request)
            let revoked = state.withLock { state in
                guard let client = form["client_id"], let secret = form["client_secret"], state.apps[client] == secret else { return false }
                return state.tokens.remove(form["token"] ?? "") != nil
            }
            return revoked ? Self.json(.ok, [:]) : Self.json(.forbidden, ["error": "unauthorized_client"])
        }
        router.get("api/v1/accounts/verify_credentials") { request, _ in
            guard isValid(request) else { return Self.json(.unauthorized, ["error": "The access token is invalid"]) }
            return Self.json(.ok, ["id": "1", "username": "you", "acct": "you", "display_name": "You"])
        }
    }

    /// Whether `request` carries a token this server gave and did not take back.
    func isValid(_ request: Request) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        let token = String(header.dropFirst(7))
        return state.withLock { $0.tokens.contains(token) }
    }

    static func form(_ request: Request) async throws -> [String: String] {
        let buffer = try await request.body.collect(upTo: 64 << 10)
        let text = String(buffer: buffer)
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        let body = (try? JSONEncoder().encode(object)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }.joined()
    }
}

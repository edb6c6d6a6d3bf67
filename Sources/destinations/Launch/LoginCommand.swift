import ArgumentParser
import FeedClient
import FeedFormat
import Foundation
import SavedState

/// `destinations login SERVER`: registers the app with the server, sends the person to its
/// authorization page (opened in the browser when there is a display, printed either way),
/// takes the code they paste, trades it for a token and keeps it for that server only
/// (``AccountStore``: a file of mode 0600). `--feed home@SERVER` (or any feed of that
/// server without `--token`) then uses it.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Log in to a Mastodon-compatible server and keep the token (mode 0600).")

    @Argument(help: ArgumentHelp("The server: mastodon.social, or https://host (http only on this machine).", valueName: "server"))
    var server: String

    func run() throws {
        let base = try Self.base(of: server)
        let fetcher = try LoginCommand.fetcher()
        defer { fetcher.shutdown() }
        let login = OAuthLogin(server: base, fetcher: fetcher)
        do {
            let app = try BlockingFetch.run { () async throws(FetchError) in try await login.registerApp() }
            let page = OAuthAnswers.authorizeURL(server: base, clientID: app.clientID)
            printError("Open this page, allow destinations to read your timelines and like posts, and paste the code it shows:\n\n  \(page)\n")
            let environment = ProcessInfo.processInfo.environment
            if !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
                printError(PageOpener.open(page, environment: environment))
            }
            FileHandle.standardError.write(Data("\ncode: ".utf8))
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), OAuthAnswers.isToken(line) else {
                throw AppError(description: "no code given: nothing kept", status: 1)
            }
            let token = try BlockingFetch.run { () async throws(FetchError) in
                try await login.token(code: line, clientID: app.clientID, clientSecret: app.clientSecret)
            }
            let acct = try BlockingFetch.run { () async throws(FetchError) in try await login.account(token: token) }
            let store = AccountStore(folder: AccountStore.defaultFolder(environment: ProcessInfo.processInfo.environment))
            do {
                try store.save(AccountStore.Account(server: base, acct: acct, clientID: app.clientID, clientSecret: app.clientSecret, token: token))
            } catch {
                throw AppError(description: "\(error)")
            }
            print("logged in to \(PlainText.clean(base)) as \(acct); the token is in \(store.path(forServer: base)) (mode 0600). Browse: destinations --feed home@\(Self.name(of: base))")
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(description: "\(PlainText.clean(base)): \(error)")
        }
    }

    /// `server` as a base URL: https, or http for a server on this machine.
    static func base(of server: String) throws(AppError) -> String {
        let text = server.contains("://") ? server : "https://" + server
        guard var components = URLComponents(string: text), let host = components.host, !host.isEmpty,
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              !(components.path.count > 1) else {
            throw AppError(description: "\(PlainText.clean(server)): give a server's name (mastodon.social) or its https address", status: 2)
        }
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1"
        if !server.contains("://") && loopback { components.scheme = "http" }
        // The secret, the code and the token would cross the network in the clear.
        if components.scheme?.lowercased() == "http" && !loopback {
            throw AppError(description: "\(PlainText.clean(server)): a login goes over https (plain http only to a server on this machine)", status: 2)
        }
        components.path = ""
        return components.string ?? text
    }

    /// The client a login or a logout asks through.
    static func fetcher() throws(AppError) -> HTTPFetcher {
        do { return try HTTPFetcher(userAgent: "destinations/\(Version.current)") } catch { throw AppError(description: "\(error)") }
    }

    /// A base URL's host and port, as `--feed home@…` takes it.
    static func name(of base: String) -> String {
        guard let components = URLComponents(string: base), let host = components.host else { return base }
        return host + (components.port.map { ":\($0)" } ?? "")
    }
}

/// `destinations logout SERVER`: takes the kept token back at the server and forgets it.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Revoke and forget the token kept for a server.")

    @Argument(help: ArgumentHelp("The server logged in to.", valueName: "server"))
    var server: String

    func run() throws {
        let base = try LoginCommand.base(of: server)
        let store = AccountStore(folder: AccountStore.defaultFolder(environment: ProcessInfo.processInfo.environment))
        let kept: AccountStore.Account?
        do { kept = try store.account(forServer: base) } catch { throw AppError(description: "\(error)") }
        guard let account = kept else { throw AppError(description: "not logged in to \(PlainText.clean(base))", status: 1) }
        let fetcher = try LoginCommand.fetcher()
        defer { fetcher.shutdown() }
        let login = OAuthLogin(server: base, fetcher: fetcher)
        var revoked = true
        do throws(FetchError) {
            try BlockingFetch.run { () async throws(FetchError) in
                try await login.revoke(token: account.token, clientID: account.clientID, clientSecret: account.clientSecret)
            }
        } catch {
            revoked = false
            printError("destinations: \(PlainText.clean(base)) did not take the token back (\(error)); forgotten here anyway")
        }
        store.remove(server: base)
        print(revoked ? "logged out of \(PlainText.clean(base)): the token is revoked and forgotten" : "forgotten the token for \(PlainText.clean(base))")
    }
}

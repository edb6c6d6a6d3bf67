import Foundation

/// The accounts `destinations login` made (issue 45): per server, the app's id and
/// secret and the person's token, each in `$XDG_CONFIG_HOME/destinations/accounts/
/// <server>.json` (else `~/.config/…`), a file only its owner may read (0600, in a folder
/// of mode 0700), as toot, tut and ssh keep theirs. Written whole under another name and
/// renamed, so a killed login never leaves half a token.
public struct AccountStore: Sendable {
    /// One logged-in account.
    public struct Account: Codable, Sendable, Equatable {
        /// The server's base URL (`https://host`).
        public var server: String
        /// Who (`acct`), as the server said.
        public var acct: String
        public var clientID: String
        public var clientSecret: String
        public var token: String

        public init(server: String, acct: String, clientID: String, clientSecret: String, token: String) {
            self.server = server
            self.acct = acct
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.token = token
        }
    }

    /// Why an account could not be kept or read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The folder of account files.
    public let folder: String

    /// The store in `folder`.
    public init(folder: String) { self.folder = folder }

    /// `$XDG_CONFIG_HOME/destinations/accounts`, else `~/.config/destinations/accounts`.
    public static func defaultFolder(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/destinations/accounts" }
        return (environment["HOME"] ?? "/tmp") + "/.config/destinations/accounts"
    }

    /// The file of `server`'s account: its host and port, nothing a path could misread.
    public func path(forServer server: String) -> String {
        let name = (URLComponents(string: server).map { ($0.host ?? "") + ($0.port.map { "_\($0)" } ?? "") } ?? server)
            .lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
        return folder + "/" + (name.isEmpty ? "server" : name) + ".json"
    }

    /// Keeps `account` (mode 0600, its folder made 0700).
    public func save(_ account: Account) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
            let target = path(forServer: account.server)
            let temporary = target + ".tmp-\(getpid())"
            let data = try JSONEncoder().encode(account)
            guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw Failure(description: "\(target): cannot be written")
            }
            if rename(temporary, target) != 0 {
                unlink(temporary)
                throw Failure(description: "\(target): cannot be written (\(String(cString: strerror(errno))))")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(folder): \(error.localizedDescription)")
        }
    }

    /// `server`'s account, if one was kept; a file others can read is refused (a token in it
    /// may have been read).
    public func account(forServer server: String) throws(Failure) -> Account? {
        let file = path(forServer: server)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { return nil }
        if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw Failure(description: "\(file): others can read it (mode \(String(mode, radix: 8))); chmod 600 \(file), or log in again")
        }
        guard let data = FileManager.default.contents(atPath: file), data.count <= 64 << 10,
              let account = try? JSONDecoder().decode(Account.self, from: data) else {
            throw Failure(description: "\(file): not an account this program wrote; log in again")
        }
        // Kept for https://host: never handed to http://host (the file name has no scheme).
        return account.server == server ? account : nil
    }

    /// Forgets `server`'s account; true when there was one.
    @discardableResult
    public func remove(server: String) -> Bool {
        unlink(path(forServer: server)) == 0
    }
}

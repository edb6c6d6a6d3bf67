import CoreKit
import Foundation
import GRDB

/// Why the state database could not be used; the app prints the text and exits, leaving
/// the file as it is (nothing the person did is deleted to make room for a fresh one).
public struct StateError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What the person did that must outlast the process, in one SQLite database (D-051):
///
/// - **likes**: the person's last word on each post (liked or not), by scope — a feed's URL,
///   or the bundled posts — so likes of the bundled posts persist across runs, and a like
///   made offline shows on the cached page it was made on;
/// - **the outbox**: each like owed to a server, with the `Idempotency-Key` it will be sent
///   with, written in the same transaction as the like — a kill -9 after the key is made and
///   before the send leaves the entry to be sent at the next run, and a send the server
///   took but whose answer was lost is sent again with the same key, which the server does
///   not act on twice;
/// - **places**: where the person was in each scope (the post, the filter, the order).
///
/// Every call is a short transaction; callers run them off the main thread (the app hands
/// them to a serial queue), except the reads of the start.
public final class StateStore: Sendable {
    /// Where the person was: the post selected and the filter and order in force.
    public struct Place: Sendable, Hashable {
        /// The post's key in its scope (a status id, or a bundled post's number).
        public var post: String
        public var filter: String
        /// `PostOrder`'s raw value.
        public var sort: String
        public init(post: String, filter: String, sort: String) {
            self.post = post
            self.filter = filter
            self.sort = sort
        }
    }

    /// The person's last word on one post.
    public struct Like: Sendable, Hashable {
        public var liked: Bool
        /// Seconds since 1970.
        public var changedAt: Int64
        public init(liked: Bool, changedAt: Int64) {
            self.liked = liked
            self.changedAt = changedAt
        }
    }

    /// A request owed to the server: favourite or unfavourite `post`.
    public struct OutboxEntry: Sendable, Hashable {
        /// Higher is later; entries are sent in this order.
        public var sequence: Int64
        public var scope: String
        public var post: String
        /// The post's title when it was liked, for a message that names it.
        public var title: String
        public var favourite: Bool
        public var idempotencyKey: String
        public var queuedAt: Int64
        /// Sends that failed so far.
        public var attempts: Int
        public var lastError: String?
    }

    public let path: String
    let database: StateDatabase
    public let now: @Sendable () -> Int64
    /// What opening found readable by others and made private (one line each, for the app to
    /// say): the folder is 0700 and the database 0600 whatever the umask (issue 43).
    public let repairs: [String]

    /// Opens (or makes) `folder/state.sqlite`. `now`: seconds since 1970 (a test's clock).
    public init(folder: String, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) throws(StateError) {
        path = (folder as NSString).appendingPathComponent("state.sqlite")
        self.now = now
        do {
            // The database file made 0600 before SQLite opens it: its -wal and -shm take its mode.
            repairs = try PrivateFiles.folder(folder) + PrivateFiles.file(path) + PrivateFiles.existingFiles([path + "-wal", path + "-shm"])
        } catch {
            throw StateError("cannot make the state folder \(folder): \(error.description)")
        }
        do { database = try StateDatabase(path: path) } catch {
            throw StateError("cannot open the state database \(path): \(Self.reason(error)) (--no-state runs without it)")
        }
    }

    /// `$XDG_STATE_HOME/destinations`, else `~/.local/state/destinations` (an
    /// `XDG_STATE_HOME` that is not absolute is ignored, as the specification says).
    public static func defaultFolder(environment: [String: String]) -> String {
        if let home = environment["XDG_STATE_HOME"], home.hasPrefix("/") { return home + "/destinations" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/destinations"
    }

    // MARK: Likes

    /// The person's likes in `scope`, by post.
    public func likes(in scope: String) -> [String: Like] {
        let rows = (try? database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT post, liked, changedAt FROM \"like\" WHERE scope = ?", arguments: [scope])
        }) ?? []
        var likes: [String: Like] = [:]
        for row in rows { likes[row["post"]] = Like(liked: row["liked"], changedAt: row["changedAt"]) }
        return likes
    }

    /// Records that the person liked (or unliked) `post` and, when `send`, the request that
    /// carries it to the server, in one transaction; returns the outbox entry made.
    @discardableResult
    public func setLiked(_ liked: Bool, post: String, title: String, in scope: String, send: Bool) throws(StateError) -> OutboxEntry? {
        let time = now()
        do {
            return try database.queue.write { db -> OutboxEntry? in
                try db.execute(sql: "INSERT OR REPLACE INTO \"like\" (scope, post, liked, changedAt) VALUES (?, ?, ?, ?)",
                               arguments: [scope, post, liked, time])
                guard send else { return nil }
                let key = UUID().uuidString.lowercased()
                try db.execute(sql: "INSERT INTO outbox (scope, post, title, favourite, idempotencyKey, queuedAt) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [scope, post, title, liked, key, time])
                return OutboxEntry(sequence: db.lastInsertedRowID, scope: scope, post: post, title: title, favourite: liked,
                                   idempotencyKey: key, queuedAt: time, attempts: 0, lastError: nil)
            }
        } catch {
            throw StateError("cannot keep the like: \(Self.reason(error))")
        }
    }

    // MARK: Outbox

    /// The requests owed to `scope`'s server, oldest first.
    public func pending(in scope: String) -> [OutboxEntry] {
        (try? database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE scope = ? ORDER BY sequence", arguments: [scope]).map(Self.entry)
        }) ?? []
    }

    /// The oldest request owed to `scope`'s server.
    public func first(in scope: String) -> OutboxEntry? {
        try? database.queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM outbox WHERE scope = ? ORDER BY sequence LIMIT 1", arguments: [scope]).map(Self.entry)
        }
    }

    /// The server took `entry`: it leaves the outbox.
    public func sent(_ entry: OutboxEntry) throws(StateError) {
        do {
            try database.queue.write { db in try db.execute(sql: "DELETE FROM outbox WHERE sequence = ?", arguments: [entry.sequence]) }
        } catch {
            throw StateError("cannot record a sent like: \(Self.reason(error))")
        }
    }

    /// A send of `entry` failed in a way worth trying again; returns the attempts so far.
    @discardableResult
    public func failed(_ entry: OutboxEntry, reason: String) throws(StateError) -> Int {
        do {
            return try database.queue.write { db in
                try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, lastError = ? WHERE sequence = ?", arguments: [reason, entry.sequence])
                return try Int.fetchOne(db, sql: "SELECT attempts FROM outbox WHERE sequence = ?", arguments: [entry.sequence]) ?? entry.attempts + 1
            }
        } catch {
            throw StateError("cannot record a failed send: \(Self.reason(error))")
        }
    }

    /// The server refused `entry` for good: it leaves the outbox and, unless the person has
    /// said something later about the same post, the like goes back to what it was before.
    /// Returns the like as it is now when it went back (nil: a later word stands).
    @discardableResult
    public func rollBack(_ entry: OutboxEntry) throws(StateError) -> Bool? {
        do {
            return try database.queue.write { db -> Bool? in
                try db.execute(sql: "DELETE FROM outbox WHERE sequence = ?", arguments: [entry.sequence])
                let later = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE scope = ? AND post = ? AND sequence > ?",
                                             arguments: [entry.scope, entry.post, entry.sequence]) ?? 0
                guard later == 0 else { return nil }
                try db.execute(sql: "INSERT OR REPLACE INTO \"like\" (scope, post, liked, changedAt) VALUES (?, ?, ?, ?)",
                               arguments: [entry.scope, entry.post, !entry.favourite, now()])
                return !entry.favourite
            }
        } catch {
            throw StateError("cannot roll a like back: \(Self.reason(error))")
        }
    }

    // MARK: Places

    /// Where the person was in `scope` when they last left it.
    public func place(in scope: String) -> Place? {
        try? database.queue.read { db in
            try Row.fetchOne(db, sql: "SELECT post, filter, sort FROM place WHERE scope = ?", arguments: [scope]).map {
                Place(post: $0["post"], filter: $0["filter"], sort: $0["sort"])
            }
        }
    }

    public func savePlace(_ place: Place, in scope: String) throws(StateError) {
        do {
            try database.queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO place (scope, post, filter, sort, savedAt) VALUES (?, ?, ?, ?, ?)",
                               arguments: [scope, place.post, place.filter, place.sort, now()])
            }
        } catch {
            throw StateError("cannot keep the place: \(Self.reason(error))")
        }
    }

    /// Forgets where the person was in `scope` (`--fresh`).
    public func forgetPlace(in scope: String) {
        _ = try? database.queue.write { db in try db.execute(sql: "DELETE FROM place WHERE scope = ?", arguments: [scope]) }
    }

    // MARK: Helpers

    private static func entry(_ row: Row) -> OutboxEntry {
        OutboxEntry(sequence: row["sequence"], scope: row["scope"], post: row["post"], title: row["title"], favourite: row["favourite"],
                    idempotencyKey: row["idempotencyKey"], queuedAt: row["queuedAt"], attempts: row["attempts"], lastError: row["lastError"])
    }

    static func reason(_ error: any Error) -> String {
        if let database = error as? DatabaseError { return database.message ?? "\(database.resultCode)" }
        return (error as NSError).localizedDescription
    }
}

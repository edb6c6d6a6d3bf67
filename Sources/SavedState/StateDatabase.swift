import Foundation
import GRDB

/// The database of what the person did that must outlast the process — likes, the outbox
/// of likes not yet on the server, the place they were at — one SQLite file through GRDB in
/// WAL mode, built by versioned migrations (D-051). `$XDG_STATE_HOME/destinations`.
struct StateDatabase: Sendable {
    let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        // Another connection writing (a second run of the app, or the last one's sender
        // finishing while the next opens the file): wait for it rather than fail the write
        // ("database is locked"; found by the hundred-likes test under ThreadSanitizer).
        // Writes run on the state's own queue, never on the main thread.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL: a commit is one append; a kill -9 leaves the last committed transaction.
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            // FULL: a like the person saw taken survives a power cut too, not only a kill.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1: likes, outbox, places") { db in
            // The person's last word on a post: liked or not, and when they said it.
            try db.create(table: "like") { table in
                table.column("scope", .text).notNull()
                table.column("post", .text).notNull()
                table.column("liked", .boolean).notNull()
                table.column("changedAt", .integer).notNull()
                table.primaryKey(["scope", "post"])
            }
            // Requests owed to a server, in the order they were made; a row goes when the
            // server has answered it (or refused it for good).
            try db.create(table: "outbox") { table in
                table.autoIncrementedPrimaryKey("sequence")
                table.column("scope", .text).notNull().indexed()
                table.column("post", .text).notNull()
                table.column("title", .text).notNull()
                table.column("favourite", .boolean).notNull()
                table.column("idempotencyKey", .text).notNull().unique()
                table.column("queuedAt", .integer).notNull()
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("lastError", .text)
            }
            try db.create(table: "place") { table in
                table.primaryKey("scope", .text)
                table.column("post", .text).notNull()
                table.column("filter", .text).notNull()
                table.column("sort", .text).notNull()
                table.column("savedAt", .integer).notNull()
            }
        }
        migrator.registerMigration("2: settings") { db in
            // The person's lasting choices, by name (``StateStore/Setting``).
            try db.create(table: "setting") { table in
                table.primaryKey("name", .text)
                table.column("value", .text).notNull()
            }
        }
        return migrator
    }
}

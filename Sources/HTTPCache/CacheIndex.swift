import Foundation
import GRDB

/// The cache's index: one SQLite table through GRDB, in WAL mode, built by versioned
/// migrations. A row names a complete body file; lookups go by primary key (never a
/// directory listing), eviction by the access sequence (never atime).
struct CacheIndex: Sendable {
    /// One stored response, as the table holds it.
    struct Row: Codable, FetchableRecord, PersistableRecord, Sendable {
        static let databaseTableName = "entry"
        /// The URL and the secondary key (`Vary`'s request fields), joined.
        var key: String
        var url: String
        /// `Vary`'s field names, lowercased, one a line.
        var vary: String
        var status: Int
        /// The response's fields, as JSON.
        var fields: Data
        var requestTime: Int64
        var responseTime: Int64
        /// The body's file name in the cache's folder.
        var body: String
        var size: Int
        /// Higher is more recently used.
        var used: Int64
    }

    let database: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        // Two runs sharing one cache: a writer waits for the other's transaction instead of
        // failing with "database is locked".
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL: readers never wait for a writer, and a crash leaves the last committed state.
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        database = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1: entries") { db in
            try db.create(table: "entry") { table in
                table.primaryKey("key", .text)
                table.column("url", .text).notNull().indexed()
                table.column("vary", .text).notNull()
                table.column("status", .integer).notNull()
                table.column("fields", .blob).notNull()
                table.column("requestTime", .integer).notNull()
                table.column("responseTime", .integer).notNull()
                table.column("body", .text).notNull().unique()
                table.column("size", .integer).notNull()
                table.column("used", .integer).notNull().indexed()
            }
        }
        // Versions before issue 43 keyed a `Vary: Authorization` response by the token itself
        // and kept `Set-Cookie`: those rows go, their bytes overwritten in the file (their
        // bodies, named by no row now, are deleted at open).
        migrator.registerMigration("2: no credentials on disk") { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: """
                DELETE FROM entry WHERE key LIKE '%' || char(10) || 'authorization=%' OR key LIKE '%' || char(10) || 'cookie=%'
                    OR key LIKE '%' || char(10) || 'proxy-authorization=%' OR CAST(fields AS TEXT) LIKE '%set-cookie%'
                """)
        }
        return migrator
    }
}

import CoreKit
import FeedFormat
import Foundation
import GRDB

/// Responses kept on disk between runs: bodies as files, an index in SQLite
/// (``CacheIndex``), a hard size cap enforced on every write, least recently used out first.
///
/// **Crash-safe.** A body is written to a temporary file, flushed (`fsync`) and renamed into
/// place before its index row is committed, so a row always names a complete file; a kill at
/// any point leaves at worst a file no row names, deleted at the next open. A body whose
/// length is not its row's is never served (the row goes).
///
/// **Thread-safe, blocking.** Every call does disk I/O: call it from the network's threads,
/// never from the frame loop's. The in-memory figures are under a short lock.
public final class DiskCache: Sendable {
    /// What the cache did so far, and holds.
    public struct Counters: Sendable, Equatable {
        /// Lookups that found a stored response.
        public var hits = 0
        /// Entries removed to stay under the cap.
        public var evictions = 0
        /// Entries held now.
        public var entries = 0
        /// Bytes of bodies held now.
        public var bytes = 0
        /// Rows dropped because their body was missing or cut short.
        public var damaged = 0
    }

    /// A stored response.
    public struct Entry: Sendable, Equatable {
        /// The URL it answers.
        public var url: String
        /// Its status.
        public var status: Int
        /// Its fields (updated by each 304).
        public var fields: HTTPFields
        /// When the request that fetched (or last revalidated) it was sent, seconds since 1970.
        public var requestTime: Int64
        /// When its response arrived, seconds since 1970.
        public var responseTime: Int64
        /// The body.
        public var body: [UInt8]
    }

    /// The most bytes of bodies kept.
    public let capacity: Int
    private let folder: URL
    private let index: CacheIndex
    private let state: Lock<(sequence: Int64, counters: Counters)>
    /// What opening found readable by others and made private (one line each, for the app
    /// to say): the folder is 0700 and its files 0600 whatever the umask (issue 43).
    public let repairs: [String]

    /// The cache in `folder` (made if missing, mode 0700), holding at most `capacity` bytes
    /// of bodies. Files no row names (a write cut short by a crash) are deleted.
    public init(folder: String, capacity: Int) throws {
        self.capacity = max(0, capacity)
        self.folder = URL(fileURLWithPath: folder, isDirectory: true)
        let indexPath = self.folder.appendingPathComponent("index.sqlite").path
        // The index file made 0600 before SQLite opens it: its -wal and -shm take its mode.
        repairs = try PrivateFiles.folder(folder) + PrivateFiles.file(indexPath) + PrivateFiles.existingFiles([indexPath + "-wal", indexPath + "-shm"])
        index = try CacheIndex(path: indexPath)
        let (rows, sequence, bytes) = try index.database.read { db in
            (try String.fetchSet(db, sql: "SELECT body FROM entry"),
             try Int64.fetchOne(db, sql: "SELECT MAX(used) FROM entry") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM entry") ?? 0)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where (name.hasSuffix(".body") && !rows.contains(name)) || name.hasPrefix("tmp-") {
            try? FileManager.default.removeItem(at: self.folder.appendingPathComponent(name))
        }
        var counters = Counters()
        counters.entries = rows.count
        counters.bytes = bytes
        state = Lock((sequence, counters))
        try evict(keeping: nil)
    }

    /// The figures now.
    public var counters: Counters { state.withLock { $0.counters } }

    /// The stored response for a GET of `url` with these request fields (its `Vary` fields
    /// must match), or nil; marks it used.
    public func lookup(url: String, request: HTTPFields) -> Entry? { lookup(url: url, request: request, countsHit: true) }

    /// What is stored for `url` with these request fields, without its body and without
    /// marking it used: enough to tell whether it is fresh before reading it.
    public func head(url: String, request: HTTPFields) -> (status: Int, fields: HTTPFields, requestTime: Int64, responseTime: Int64)? {
        guard let rows = try? index.database.read({ db in try CacheIndex.Row.filter(Column("url") == url).fetchAll(db) }) else { return nil }
        guard let row = rows.first(where: { $0.key == Self.key(url: url, vary: Self.names($0.vary), request: request) }) else { return nil }
        return (row.status, Self.fields(row.fields), row.requestTime, row.responseTime)
    }

    /// ``lookup(url:request:)``; `countsHit` false for a look that is not a use (a 304's update).
    private func lookup(url: String, request: HTTPFields, countsHit: Bool) -> Entry? {
        guard let rows = try? index.database.read({ db in try CacheIndex.Row.filter(Column("url") == url).fetchAll(db) }) else { return nil }
        for row in rows where row.key == Self.key(url: url, vary: Self.names(row.vary), request: request) {
            guard let body = readBody(row) else {
                // Cut short, or replaced by another thread since the row was read: only the
                // first is damage (the row is still this one), the second is looked up again.
                return drop(row, damaged: true) ? nil : lookup(url: url, request: request, countsHit: countsHit)
            }
            let used = nextUse()
            _ = try? index.database.write { db in try db.execute(sql: "UPDATE entry SET used = ? WHERE key = ?", arguments: [used, row.key]) }
            if countsHit { state.withLock { $0.counters.hits += 1 } }
            return Entry(url: url, status: row.status, fields: Self.fields(row.fields), requestTime: row.requestTime,
                         responseTime: row.responseTime, body: body)
        }
        return nil
    }

    /// Keeps a response (when RFC 9111 lets a private cache: see `CachePolicy.isStorable`),
    /// replacing what was stored for the same key, then evicts least recently used entries
    /// until the bodies fit the cap. A body larger than the whole cap is not kept. Returns
    /// whether it was kept.
    @discardableResult
    public func store(url: String, request: HTTPFields, status: Int, response: HTTPFields,
                      requestTime: Int64, responseTime: Int64, body: [UInt8]) -> Bool {
        guard CachePolicy.isStorable(status: status, response: response), let vary = CachePolicy.varyNames(response),
              body.count <= capacity else { return false }
        let name = "\(UUID().uuidString.lowercased()).body"
        guard writeBody(body, as: name) else { return false }
        let row = CacheIndex.Row(key: Self.key(url: url, vary: vary, request: request), url: url, vary: vary.joined(separator: "\n"),
                                 status: status, fields: Self.data(response), requestTime: requestTime, responseTime: responseTime,
                                 body: name, size: body.count, used: nextUse())
        do {
            let replaced = try index.database.write { db -> CacheIndex.Row? in
                let old = try CacheIndex.Row.fetchOne(db, key: row.key)
                try row.save(db)
                return old
            }
            state.withLock {
                $0.counters.bytes += row.size - (replaced?.size ?? 0)
                $0.counters.entries += replaced == nil ? 1 : 0
            }
            if let replaced { try? FileManager.default.removeItem(at: folder.appendingPathComponent(replaced.body)) }
            try evict(keeping: row.key)
            return true
        } catch {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            return false
        }
    }

    /// After a 304: the stored fields updated as RFC 9111 section 3.2 says, and the times of
    /// this exchange; returns the entry to use, or nil when nothing was stored.
    public func update(url: String, request: HTTPFields, notModified: HTTPFields, requestTime: Int64, responseTime: Int64) -> Entry? {
        // The lookup that found the stale copy counted the hit; the update is not another.
        guard var entry = lookup(url: url, request: request, countsHit: false),
              let vary = CachePolicy.varyNames(entry.fields) else { return nil }
        entry.fields = CachePolicy.updating(entry.fields, with: notModified)
        entry.requestTime = requestTime
        entry.responseTime = responseTime
        let key = Self.key(url: url, vary: vary, request: request)
        _ = try? index.database.write { db in
            try db.execute(sql: "UPDATE entry SET fields = ?, requestTime = ?, responseTime = ? WHERE key = ?",
                           arguments: [Self.data(entry.fields), requestTime, responseTime, key])
        }
        return entry
    }

    // MARK: Files

    private func readBody(_ row: CacheIndex.Row) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(row.body).path), data.count == row.size else { return nil }
        return [UInt8](data)
    }

    /// Temporary file, flushed, renamed: the name exists only for a complete body.
    private func writeBody(_ body: [UInt8], as name: String) -> Bool {
        let temporary = folder.appendingPathComponent("tmp-\(name)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        var written = 0
        let ok = body.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 { if errno == EINTR { continue }; return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary, folder.appendingPathComponent(name).path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Deletes `row` if it is still the one its key names (another thread may have replaced
    /// it since it was read: then nothing is deleted, and false is returned).
    @discardableResult
    private func drop(_ row: CacheIndex.Row, damaged: Bool) -> Bool {
        let deleted = (try? index.database.write { db -> Bool in
            try db.execute(sql: "DELETE FROM entry WHERE key = ? AND body = ?", arguments: [row.key, row.body])
            return db.changesCount > 0
        }) ?? false
        guard deleted else { return false }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(row.body))
        state.withLock {
            $0.counters.entries -= 1
            $0.counters.bytes -= row.size
            if damaged { $0.counters.damaged += 1 } else { $0.counters.evictions += 1 }
        }
        return true
    }

    /// Least recently used out until the bodies fit (the entry just written stays).
    private func evict(keeping key: String?) throws {
        while state.withLock({ $0.counters.bytes }) > capacity {
            let victim = try index.database.read { db in
                try CacheIndex.Row.filter(Column("key") != (key ?? "")).order(Column("used")).fetchOne(db)
            }
            guard let victim else { return }
            drop(victim, damaged: false)
        }
    }

    private func nextUse() -> Int64 { state.withLock { $0.sequence += 1; return $0.sequence } }

    // MARK: Keys and encodings

    /// The row's key: the URL, and for a response with `Vary` the request's values of those
    /// fields. A credential (`Authorization`, `Cookie`, `Proxy-Authorization`) stands there as
    /// a digest, never as itself: a `Vary: Authorization` response keeps one copy per
    /// account without the token reaching the disk (issue 43).
    static func key(url: String, vary: [String], request: HTTPFields) -> String {
        guard !vary.isEmpty else { return url }
        var request = request
        for name in credentialFields {
            let values = request.values(name)
            guard !values.isEmpty else { continue }
            request.set(name, "digest " + MD5.hex(Array(values.joined(separator: "\n").utf8)))
        }
        return url + "\n" + CachePolicy.secondaryKey(names: vary, request: request)  // a URL holds no newline
    }

    /// Request fields that carry a credential.
    static let credentialFields = ["authorization", "cookie", "proxy-authorization"]

    /// Response fields never written to disk: what a server would have a client send back
    /// as a credential (a private cache has no use for them on a stored copy).
    static let unkeptResponseFields = ["set-cookie", "set-cookie2", "authentication-info", "proxy-authentication-info"]

    static func names(_ vary: String) -> [String] { vary.split(separator: "\n").map(String.init) }

    static func data(_ fields: HTTPFields) -> Data {
        var kept = fields
        for name in unkeptResponseFields { kept.set(name, nil) }
        return (try? JSONEncoder().encode(kept)) ?? Data()
    }

    static func fields(_ data: Data) -> HTTPFields { (try? JSONDecoder().decode(HTTPFields.self, from: data)) ?? HTTPFields() }
}

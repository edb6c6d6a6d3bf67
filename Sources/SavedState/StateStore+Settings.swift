import GRDB

extension StateStore {
    /// A choice the person made in the app that holds for every feed and folder from then on.
    public enum Setting: String, Sendable, CaseIterable {
        /// Posts behind a content warning or marked sensitive are shown as they are (`X`).
        case showSensitive = "show-sensitive"
    }

    /// The saved value of `setting` (nil: never set, the app's default holds).
    public func value(of setting: Setting) -> Bool? {
        try? database.queue.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [setting.rawValue]).map { $0 == "yes" }
        }
    }

    /// Keeps `value` for `setting`.
    public func keep(_ value: Bool, for setting: Setting) throws(StateError) {
        do {
            try database.queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)", arguments: [setting.rawValue, value ? "yes" : "no"])
            }
        } catch {
            throw StateError("cannot keep the setting \(setting.rawValue): \(Self.reason(error))")
        }
    }
}

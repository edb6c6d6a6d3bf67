import Foundation
import SavedState
import Testing

/// The state database on its own: what is kept, in which order, what a rollback restores,
/// and that all of it is there again when the file is opened by the next run.
@Suite struct StateStoreTests {
    /// The state is the person's only (issue 43): made 0700 and 0600 whatever the umask,
    /// and a folder or database found readable by others at open is made private and said.
    @Test func theStateIsReadableByItsOwnerOnly() throws {
        let fresh = try StateStore(folder: folder + "/new/state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try fresh.setLiked(true, post: "1", title: "One", in: "bundled", send: false)
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
        }
        #expect(try mode(folder + "/new/state") == 0o700 && mode(folder + "/new/state/state.sqlite") == 0o600)
        #expect(fresh.repairs.isEmpty)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/new/state") {
            #expect(try mode(folder + "/new/state/" + name) & 0o077 == 0, "\(name)")
        }
        // Made by hand, or by an older version, under a loose umask.
        let loose = folder + "/loose"
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(FileManager.default.createFile(atPath: loose + "/state.sqlite", contents: nil, attributes: [.posixPermissions: 0o644]))
        let repaired = try StateStore(folder: loose)
        #expect(repaired.repairs.count == 2, "\(repaired.repairs)")
        #expect(repaired.repairs.first?.contains("mode 0755") == true)
        #expect(try mode(loose) == 0o700 && mode(loose + "/state.sqlite") == 0o600)
        #expect(try StateStore(folder: loose).repairs.isEmpty, "said once")
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
    let clock = Clock()

    /// A settable clock (seconds since 1970).
    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_800_000_000
    }

    func open() throws -> StateStore {
        let clock = clock
        return try StateStore(folder: folder, now: { clock.now })
    }

    /// A setting (`X`: warned posts shown) is unset until kept, and there at the next open.
    @Test func aSettingIsThereAgainAtTheNextOpen() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try StateStore(folder: folder)
        #expect(store.value(of: .showSensitive) == nil)
        try store.keep(true, for: .showSensitive)
        #expect(try StateStore(folder: folder).value(of: .showSensitive) == true)
        try store.keep(false, for: .showSensitive)
        #expect(try StateStore(folder: folder).value(of: .showSensitive) == false)
    }

    @Test func likesAndPlacesAreThereAgainAtTheNextOpen() throws {
        do {
            let store = try open()
            try store.setLiked(true, post: "2", title: "Yellow blossom", in: "bundled", send: false)
            try store.setLiked(true, post: "9", title: "Nine", in: "bundled", send: false)
            try store.setLiked(false, post: "9", title: "Nine", in: "bundled", send: false)
            try store.savePlace(.init(post: "12", filter: "lake", sort: "region"), in: "bundled")
            #expect(store.pending(in: "bundled").isEmpty, "without a server nothing is owed")
        }
        let reopened = try open()
        #expect(reopened.likes(in: "bundled").mapValues(\.liked) == ["2": true, "9": false])
        #expect(reopened.place(in: "bundled") == .init(post: "12", filter: "lake", sort: "region"))
        #expect(reopened.likes(in: "https://elsewhere/api/v1/timelines/public").isEmpty, "scopes are apart")
        reopened.forgetPlace(in: "bundled")
        #expect(reopened.place(in: "bundled") == nil)
    }

    /// Each like owed to a server has its own key, made with the like, and they come out in
    /// the order they were made — also after a reopen.
    @Test func theOutboxKeepsOrderAndKeysAcrossAReopen() throws {
        let feed = "http://127.0.0.1:1/api/v1/timelines/public"
        var keys: [String] = []
        do {
            let store = try open()
            for (post, liked) in [("30", true), ("31", true), ("30", false)] {
                let entry = try #require(try store.setLiked(liked, post: post, title: "T\(post)", in: feed, send: true))
                keys.append(entry.idempotencyKey)
            }
        }
        let store = try open()
        let pending = store.pending(in: feed)
        #expect(pending.map(\.post) == ["30", "31", "30"] && pending.map(\.favourite) == [true, true, false])
        #expect(pending.map(\.idempotencyKey) == keys && Set(keys).count == 3)
        #expect(store.first(in: feed) == pending[0])
        #expect(try store.failed(pending[0], reason: "no network") == 1)
        #expect(try store.failed(pending[0], reason: "no network") == 2)
        try store.sent(store.first(in: feed)!)
        #expect(store.pending(in: feed).map(\.post) == ["31", "30"])
        #expect(store.pending(in: "bundled").isEmpty)
    }

    /// A refusal takes the like back — unless the person said something later about the
    /// same post, which stands.
    @Test func aRollbackRestoresTheLikeUnlessALaterWordStands() throws {
        let feed = "https://example.org/api/v1/timelines/public"
        let store = try open()
        let first = try #require(try store.setLiked(true, post: "5", title: "Five", in: feed, send: true))
        clock.now += 10
        let second = try #require(try store.setLiked(false, post: "5", title: "Five", in: feed, send: true))
        let lone = try #require(try store.setLiked(true, post: "6", title: "Six", in: feed, send: true))
        #expect(try store.rollBack(first) == nil, "the unlike made after it stands")
        #expect(store.likes(in: feed)["5"]?.liked == false)
        #expect(try store.rollBack(second) == true, "the last word on post 5 refused: back to liked")
        #expect(store.likes(in: feed)["5"]?.liked == true)
        #expect(try store.rollBack(lone) == false)
        #expect(store.likes(in: feed)["6"]?.liked == false)
        #expect(store.pending(in: feed).isEmpty)
    }

    /// A file that is not a database is reported with its path, and left as it is.
    @Test func aDamagedFileIsReportedAndKept() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/state.sqlite"
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try open()
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("--no-state")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage, "nothing the person had is overwritten")
    }

    @Test func theDefaultFolderFollowsXDG() {
        #expect(StateStore.defaultFolder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/destinations")
        #expect(StateStore.defaultFolder(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/destinations")
        #expect(StateStore.defaultFolder(environment: ["HOME": "/h"]) == "/h/.local/state/destinations")
    }
}

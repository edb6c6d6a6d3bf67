import FeedFormat
import Foundation
import HTTPCache
import Testing

/// A fresh folder for one test's cache.
func temporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A body whose bytes say which URL and version they are (so a mixed-up body is caught).
func body(_ url: String, version: Int = 1, size: Int = 300) -> [UInt8] {
    let seed = Array("\(url)#\(version)|".utf8)
    return (0..<size).map { seed[$0 % seed.count] }
}

let cacheable = HTTPFields([("Cache-Control", "max-age=600"), ("ETag", "\"v1\""), ("Content-Type", "image/jpeg")])

@Suite struct DiskCacheTests {
    @Test func aStoredResponseIsFoundAgainAfterTheCacheIsReopened() throws {
        let folder = temporaryFolder()
        do {
            let cache = try DiskCache(folder: folder, capacity: 1 << 20)
            #expect(cache.store(url: "http://a/1", request: HTTPFields(), status: 200, response: cacheable,
                                requestTime: 100, responseTime: 101, body: body("http://a/1")))
        }
        let reopened = try DiskCache(folder: folder, capacity: 1 << 20)
        let entry = try #require(reopened.lookup(url: "http://a/1", request: HTTPFields()))
        #expect(entry.body == body("http://a/1") && entry.status == 200)
        #expect(entry.fields["etag"] == "\"v1\"" && entry.requestTime == 100 && entry.responseTime == 101)
        #expect(reopened.counters.entries == 1 && reopened.counters.bytes == 300 && reopened.counters.hits == 1)
        #expect(reopened.lookup(url: "http://a/2", request: HTTPFields()) == nil)
    }

    @Test func whatRFC9111ForbidsIsNeverWritten() throws {
        let cache = try DiskCache(folder: temporaryFolder(), capacity: 1 << 20)
        #expect(!cache.store(url: "http://a/1", request: HTTPFields(), status: 200, response: HTTPFields([("Cache-Control", "no-store")]),
                             requestTime: 0, responseTime: 0, body: body("x")))
        #expect(!cache.store(url: "http://a/2", request: HTTPFields(), status: 200, response: HTTPFields([("Vary", "*")]),
                             requestTime: 0, responseTime: 0, body: body("x")))
        #expect(!cache.store(url: "http://a/3", request: HTTPFields(), status: 206, response: cacheable,
                             requestTime: 0, responseTime: 0, body: body("x")))
        #expect(cache.counters.entries == 0 && cache.counters.bytes == 0)
    }

    @Test func varyKeepsOneResponsePerRequestVariant() throws {
        let cache = try DiskCache(folder: temporaryFolder(), capacity: 1 << 20)
        var varying = cacheable
        varying.set("Vary", "Authorization")
        let alice = HTTPFields([("Authorization", "Bearer alice")]), bob = HTTPFields([("Authorization", "Bearer bob")])
        cache.store(url: "http://a/me", request: alice, status: 200, response: varying, requestTime: 0, responseTime: 0, body: body("alice"))
        #expect(cache.lookup(url: "http://a/me", request: bob) == nil)
        cache.store(url: "http://a/me", request: bob, status: 200, response: varying, requestTime: 0, responseTime: 0, body: body("bob"))
        #expect(cache.lookup(url: "http://a/me", request: alice)?.body == body("alice"))
        #expect(cache.lookup(url: "http://a/me", request: bob)?.body == body("bob"))
        #expect(cache.counters.entries == 2)
    }

    @Test func aNewerResponseReplacesTheOldAndItsFile() throws {
        let folder = temporaryFolder()
        let cache = try DiskCache(folder: folder, capacity: 1 << 20)
        cache.store(url: "http://a/1", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0, body: body("http://a/1", size: 300))
        cache.store(url: "http://a/1", request: HTTPFields(), status: 200, response: cacheable, requestTime: 5, responseTime: 5,
                    body: body("http://a/1", version: 2, size: 200))
        #expect(cache.lookup(url: "http://a/1", request: HTTPFields())?.body == body("http://a/1", version: 2, size: 200))
        #expect(cache.counters.entries == 1 && cache.counters.bytes == 200)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".body") }
        #expect(files.count == 1)
    }

    /// The cap holds after every write, and what goes is what was used least recently
    /// (the access record, not the write order).
    @Test func theCapHoldsAfterEveryWriteAndTheLeastRecentlyUsedGoes() throws {
        let cache = try DiskCache(folder: temporaryFolder(), capacity: 1_000)
        for n in 1...3 {
            cache.store(url: "http://a/\(n)", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0, body: body("http://a/\(n)"))
        }
        #expect(cache.lookup(url: "http://a/1", request: HTTPFields()) != nil)  // 1 is now more recent than 2
        cache.store(url: "http://a/4", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0, body: body("http://a/4"))
        #expect(cache.counters.bytes <= 1_000)
        #expect(cache.lookup(url: "http://a/2", request: HTTPFields()) == nil)
        #expect(cache.lookup(url: "http://a/1", request: HTTPFields()) != nil)
        #expect(cache.counters.evictions == 1 && cache.counters.entries == 3)
        for n in 5...40 {
            cache.store(url: "http://a/\(n)", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0, body: body("http://a/\(n)"))
            #expect(cache.counters.bytes <= 1_000, "over the cap after write \(n)")
        }
        #expect(!cache.store(url: "http://a/big", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0,
                             body: body("big", size: 1_001)))
    }

    @Test func aNotModifiedUpdatesTheStoredFieldsAndTimesForGood() throws {
        let folder = temporaryFolder()
        let cache = try DiskCache(folder: folder, capacity: 1 << 20)
        cache.store(url: "http://a/1", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 1, body: body("http://a/1"))
        let updated = try #require(cache.update(url: "http://a/1", request: HTTPFields(),
                                                notModified: HTTPFields([("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")]),
                                                requestTime: 500, responseTime: 501))
        #expect(updated.fields["cache-control"] == "max-age=60" && updated.fields["content-type"] == "image/jpeg")
        #expect(cache.counters.hits == 0, "an update is not a use: the lookup that found the stale copy counts it")
        let reopened = try #require(try DiskCache(folder: folder, capacity: 1 << 20).lookup(url: "http://a/1", request: HTTPFields()))
        #expect(reopened.fields == updated.fields && reopened.responseTime == 501 && reopened.body == body("http://a/1"))
    }

    /// What a crash can leave: a temporary file, a body no row names, a body cut short.
    /// None is ever served; the first two are deleted at the next open, the third with its row.
    @Test func leftoversOfACrashAreCleanedAndACutBodyIsNeverServed() throws {
        let folder = temporaryFolder()
        do {
            let cache = try DiskCache(folder: folder, capacity: 1 << 20)
            cache.store(url: "http://a/1", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0, body: body("http://a/1"))
            cache.store(url: "http://a/2", request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0, body: body("http://a/2"))
        }
        #expect(FileManager.default.createFile(atPath: folder + "/tmp-half.body", contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: folder + "/orphan.body", contents: Data([1, 2, 3])))
        let cache = try DiskCache(folder: folder, capacity: 1 << 20)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains("tmp-half.body") && !names.contains("orphan.body"))
        // Cut one body short behind the cache's back.
        let bodies = names.filter { $0.hasSuffix(".body") }
        #expect(bodies.count == 2)
        let victim = try #require(bodies.first)
        try Data([0]).write(to: URL(fileURLWithPath: folder + "/" + victim))
        let found = [cache.lookup(url: "http://a/1", request: HTTPFields()), cache.lookup(url: "http://a/2", request: HTTPFields())]
        #expect(found.compactMap { $0 }.count == 1)
        for entry in found.compactMap({ $0 }) { #expect(entry.body == body(entry.url)) }
        #expect(cache.counters.damaged == 1 && cache.counters.entries == 1 && cache.counters.bytes == 300)
    }

    /// The network's threads share one cache: four threads storing, replacing and reading at
    /// once leave figures that add up and the cap kept (and ThreadSanitizer, in `make tsan`,
    /// sees every access ordered).
    @Test func threadsSharingTheCacheLeaveItConsistent() throws {
        let folder = temporaryFolder()
        let cache = try DiskCache(folder: folder, capacity: 20_000)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for n in 0..<100 {
                let url = "http://a/\((n * 7 + thread) % 30)"
                cache.store(url: url, request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0,
                            body: body(url, version: thread, size: 200 + (n % 5) * 100))
                _ = cache.lookup(url: "http://a/\(n % 30)", request: HTTPFields())
            }
        }
        var found = 0, bytes = 0
        for n in 0..<30 {
            guard let entry = cache.lookup(url: "http://a/\(n)", request: HTTPFields()) else { continue }
            found += 1
            bytes += entry.body.count
            #expect(String(decoding: entry.body.prefix(12), as: UTF8.self).hasPrefix("http://a/\(n)#"))
        }
        #expect(found == cache.counters.entries && bytes == cache.counters.bytes && bytes <= 20_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".body") }.count == found)
    }

    /// The issue's case, scaled: a fling past 4,000 distinct photos into an 8 MB cache, where
    /// about 1,800 fit, so that more than half the writes evict. After every write the bodies
    /// fit the cap; the latest photos are the ones kept. (The issue's 10,000 through 20 MB
    /// has the same shape and took 26 s of a debug build: 2–3 ms a write, SQLite's
    /// transaction and the file.)
    @Test func fourThousandPhotosThroughAnEightMegabyteCap() throws {
        let folder = temporaryFolder(), cap = 8 << 20
        let cache = try DiskCache(folder: folder, capacity: cap)
        var over = 0
        for n in 0..<4_000 {
            let url = "http://feed/media/preview/\(n).jpg"
            cache.store(url: url, request: HTTPFields(), status: 200, response: cacheable, requestTime: 0, responseTime: 0,
                        body: body(url, size: 3_000 + (n * 7_919) % 3_000))
            if cache.counters.bytes > cap { over += 1 }
        }
        #expect(over == 0, "over the cap after \(over) writes")
        let held = cache.counters
        #expect(held.entries + held.evictions == 4_000 && held.evictions > 1_000)
        #expect(cache.lookup(url: "http://feed/media/preview/3999.jpg", request: HTTPFields()) != nil)
        #expect(cache.lookup(url: "http://feed/media/preview/0.jpg", request: HTTPFields()) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".body") }.count == held.entries)
    }
}

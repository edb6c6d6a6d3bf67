import FeedFormat
import Foundation
import HTTPCache
import Testing

/// The cache under `kill -9`: a process writes, replaces and reads as fast as it can and is
/// killed wherever it happens to be; the next open must find only whole, right bodies, no
/// temporary file, figures that add up, and the cap kept. Where the kill lands is chance;
/// what is asserted holds at every point, so no outcome depends on timing.
@Suite struct DiskCacheKillTests {
    static var torture: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("cache-torture").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("cache-torture")
    }

    @Test func aKillAtAnyPointLeavesOnlyWholeBodies() throws {
        let folder = temporaryFolder(), capacity = 40_000
        for round in 1...8 {
            let process = Process()
            process.executableURL = Self.torture
            process.arguments = [folder, "\(capacity)", "\(round)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // "ready", then "stored" once the first entry is committed: something is in the cache
            // before the kill, however slow the process runs (a body file on disk is not yet
            // an entry; under ThreadSanitizer a kill 7 ms after the first file found none).
            var said = ""
            while !said.contains("stored") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the process ended: the expectations below say so
                said += String(decoding: chunk, as: UTF8.self)
            }
            usleep(useconds_t(round * 7_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            let cache = try DiskCache(folder: folder, capacity: capacity)
            var found = 0, bytes = 0
            for n in 0..<40 {
                guard let entry = cache.lookup(url: "http://torture/\(n)", request: HTTPFields()) else { continue }
                found += 1
                bytes += entry.body.count
                // The body is the one its row names: every byte is its own URL's pattern.
                let text = String(decoding: entry.body.prefix(40), as: UTF8.self)
                #expect(text.hasPrefix("http://torture/\(n)#"), "round \(round): \(entry.url) holds \(text)")
                let pattern = Array(text.prefix { $0 != "|" }.utf8) + [UInt8(ascii: "|")]
                #expect(entry.body.enumerated().allSatisfy { $0.element == pattern[$0.offset % pattern.count] }, "round \(round): \(entry.url) is mixed")
            }
            #expect(found > 0, "round \(round): nothing written before the kill")
            #expect(cache.counters.damaged == 0, "round \(round): a row named a cut body")
            #expect(found == cache.counters.entries && bytes == cache.counters.bytes, "round \(round)")
            #expect(cache.counters.bytes <= capacity, "round \(round): over the cap")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(!names.contains { $0.hasPrefix("tmp-") })
            #expect(names.filter { $0.hasSuffix(".body") }.count == found, "round \(round): files no row names")
        }
    }
}

// A process for the disk cache's kill -9 test (HTTPCacheTests): it writes, replaces and
// reads responses as fast as it can until it is killed. The test kills it at a moment of
// its choosing and checks what the next open finds.
//
//     cache-torture FOLDER CAPACITY SEED
import FeedFormat
import Foundation
import HTTPCache

let arguments = CommandLine.arguments
guard arguments.count == 4, let capacity = Int(arguments[2]), let seed = UInt64(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: cache-torture FOLDER CAPACITY SEED\n".utf8))
    exit(2)
}
let cache = try DiskCache(folder: arguments[1], capacity: capacity)
/// xorshift64: a sequence fixed by the seed.
struct Sequence {
    var state: UInt64
    mutating func next() -> Int {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Int(state % 1_000_000)
    }
}
var sequence = Sequence(state: seed | 1)
@MainActor func next() -> Int { sequence.next() }
let fields = HTTPFields([("Cache-Control", "max-age=600"), ("ETag", "\"x\"")])
FileHandle.standardOutput.write(Data("ready\n".utf8))
var toldStored = false
while true {
    let n = next() % 40, version = next() % 1000, size = 200 + next() % 3000
    let url = "http://torture/\(n)"
    let seedBytes = Array("\(url)#\(version)|".utf8)
    let body = (0..<size).map { seedBytes[$0 % seedBytes.count] }
    let stored = cache.store(url: url, request: HTTPFields(), status: 200, response: fields, requestTime: 0, responseTime: 0, body: body)
    if stored && !toldStored {
        // The first entry is committed (its row and its body): the test may kill from here on.
        FileHandle.standardOutput.write(Data("stored\n".utf8))
        toldStored = true
    }
    _ = cache.lookup(url: "http://torture/\(next() % 40)", request: HTTPFields())
}

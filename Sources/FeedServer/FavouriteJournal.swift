import Foundation

/// `--state FILE`: the server's favourites and the idempotency keys it has answered, kept
/// across a kill — as a real server keeps them in its database — so a test can kill the
/// server mid-run and still ask it, at the end, for exactly the likes the person made.
/// One JSON line per action, appended and flushed (`fsync`) before the answer is sent;
/// a line cut short by a kill is ignored when the file is read back.
final class FavouriteJournal: @unchecked Sendable {
    struct Line: Codable {
        var key: String?
        var index: Int
        var favourite: Bool
    }

    /// Written only under ``ServedPosts``' lock (one writer at a time).
    private let handle: FileHandle

    /// Opens (or makes) `path`; returns the journal and the lines already in it, in order.
    static func open(path: String) throws -> (FavouriteJournal, [Line]) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw FeedServerError(description: "\(path): cannot create the state file") }
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw FeedServerError(description: "\(path): \(error.localizedDescription)") }
        let decoder = JSONDecoder()
        let lines = data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Line.self, from: Data($0)) }
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw FeedServerError(description: "\(path): cannot write the state file") }
        handle.seekToEndOfFile()
        // A line cut short by a kill ends without a newline: start the next on its own line.
        if let last = data.last, last != UInt8(ascii: "\n") { handle.write(Data("\n".utf8)) }
        return (FavouriteJournal(handle: handle), lines)
    }

    private init(handle: FileHandle) { self.handle = handle }

    func append(_ line: Line) {
        guard var bytes = try? JSONEncoder().encode(line) else { return }
        bytes.append(UInt8(ascii: "\n"))
        handle.write(bytes)
        try? handle.synchronize()
    }
}

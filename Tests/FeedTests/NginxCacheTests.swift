import CoreKit
import FeedClient
import Foundation
import HTTPCache
import Testing

/// The disk cache against nginx (Debian's package, started on loopback by the test): a
/// server nobody here wrote, with its own `ETag`, `Last-Modified`, `Expires` and 304s. What
/// reached it is read from its access log. `make test` installs nginx (`make deps-e2e`); a
/// plain `swift test` without it skips this suite, CI never does.
let nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite(.serialized, .enabled(if: nginxBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil))
struct NginxCacheTests {

    /// nginx on a free loopback port, serving `files` from a folder of its own.
    final class Nginx: Sendable {
        let prefix: String
        let port: Int
        let process: Process

        init(files: [String: [UInt8]]) throws {
            prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)").path
            for folder in ["www/fresh", "www/revalidate", "www/nostore", "tmp"] {
                try FileManager.default.createDirectory(atPath: "\(prefix)/\(folder)", withIntermediateDirectories: true)
            }
            for (path, bytes) in files { #expect(FileManager.default.createFile(atPath: "\(prefix)/www/\(path)", contents: Data(bytes))) }
            port = try Self.freePort()
            let conf = """
            daemon off; master_process off; worker_processes 1;
            pid \(prefix)/nginx.pid; error_log \(prefix)/error.log;
            events { worker_connections 64; }
            http {
                access_log \(prefix)/access.log;
                client_body_temp_path \(prefix)/tmp; proxy_temp_path \(prefix)/tmp; fastcgi_temp_path \(prefix)/tmp;
                uwsgi_temp_path \(prefix)/tmp; scgi_temp_path \(prefix)/tmp;
                types { image/jpeg jpg; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(prefix)/www;
                    location /fresh/ { expires 1h; }
                    location /revalidate/ { add_header Cache-Control "no-cache"; }
                    location /nostore/ { add_header Cache-Control "no-store"; }
                }
            }
            """
            try conf.write(toFile: "\(prefix)/nginx.conf", atomically: true, encoding: .utf8)
            process = Process()
            process.executableURL = URL(fileURLWithPath: nginxBinary ?? "/usr/sbin/nginx")
            process.arguments = ["-p", prefix, "-c", "\(prefix)/nginx.conf"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(30)  // a bound for a hang, not a timing
            while !Self.accepts(port), Date() < deadline { usleep(20_000) }
            guard Self.accepts(port) else { throw TestFailure("nginx did not start: \((try? String(contentsOfFile: "\(prefix)/error.log", encoding: .utf8)) ?? "")") }
        }

        /// Requests for `path` in the access log, with their statuses.
        func requests(_ path: String) -> [Int] {
            let log = (try? String(contentsOfFile: "\(prefix)/access.log", encoding: .utf8)) ?? ""
            return log.split(separator: "\n").filter { $0.contains("\"GET \(path) ") }.compactMap { line in
                line.split(separator: "\"").dropFirst(2).first.flatMap { Int($0.split(separator: " ").first ?? "") }
            }
        }

        /// SIGKILL: nginx without a master process did not always end on SIGTERM here.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        static func freePort() throws -> Int {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
            }
            guard bound else { throw TestFailure("no free port") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        static func accepts(_ port: Int) -> Bool {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }
    }

    static let photo: [UInt8] = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func nginxsExpiresMakesAFreshCopyThatAsksNothing() async throws {
        let nginx = try Nginx(files: ["fresh/a.jpg": Self.photo])
        defer { nginx.stop() }
        let client = try HTTPCacheFeedTests.Client()
        defer { client.fetcher.shutdown() }
        let url = "http://127.0.0.1:\(nginx.port)/fresh/a.jpg"
        #expect(try await client.fetcher.photo(at: url) { _, _ in } == Self.photo)
        client.advance(3_000)  // under nginx's hour
        #expect(try await client.fetcher.photo(at: url) { _, _ in } == Self.photo)
        #expect(nginx.requests("/fresh/a.jpg") == [200])
        client.advance(1_000)  // past it: revalidated with nginx's own ETag and Last-Modified
        #expect(try await client.fetcher.photo(at: url) { _, _ in } == Self.photo)
        #expect(nginx.requests("/fresh/a.jpg") == [200, 304])
    }

    @Test func nginxsNoCacheIsRevalidatedAnd304sBringTheKeptBodyBack() async throws {
        let nginx = try Nginx(files: ["revalidate/b.jpg": Self.photo])
        defer { nginx.stop() }
        let client = try HTTPCacheFeedTests.Client()
        defer { client.fetcher.shutdown() }
        let url = "http://127.0.0.1:\(nginx.port)/revalidate/b.jpg"
        for _ in 0..<3 { #expect(try await client.fetcher.photo(at: url) { _, _ in } == Self.photo) }
        #expect(nginx.requests("/revalidate/b.jpg") == [200, 304, 304])
        #expect(client.fetcher.cacheFigures.revalidated304 == 2 && client.fetcher.bytesReceived == Self.photo.count)
    }

    @Test func nginxsNoStoreIsNeverKept() async throws {
        let nginx = try Nginx(files: ["nostore/c.jpg": Self.photo])
        defer { nginx.stop() }
        let client = try HTTPCacheFeedTests.Client()
        defer { client.fetcher.shutdown() }
        let url = "http://127.0.0.1:\(nginx.port)/nostore/c.jpg"
        for _ in 0..<2 { #expect(try await client.fetcher.photo(at: url) { _, _ in } == Self.photo) }
        #expect(nginx.requests("/nostore/c.jpg") == [200, 200])
        #expect(client.fetcher.cache?.counters.entries == 0)
    }
}

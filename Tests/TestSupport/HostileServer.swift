#if canImport(Glibc)
import Glibc
#endif
import CoreKit
import Foundation

/// An HTTP/1.1 server that says whatever a test scripts, on one loopback address of its
/// choosing (127.0.0.1, .2, .3 …: each a separate origin), recording every request as it
/// came. The adversary of issue 43: redirects to other origins, `Link` headers pointing
/// anywhere, bodies that are not what was asked, answers that never end. Plain sockets and
/// a thread per connection, so nothing it does depends on the client's framework, and a
/// handler may take as long as it likes (a trickle, a stall) without holding up the others.
public final class HostileServer: @unchecked Sendable {
    /// A request as it reached the server.
    public struct Request: Sendable {
        public var method: String
        /// The request target as sent (path and query).
        public var target: String
        /// Header lines in order, names as sent.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// What to send back: a status, headers (Content-Length is added for `body`), a body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        /// Written a chunk at a time with this pause between chunks (a trickle), or at once.
        public var trickle: (chunk: Int, pause: Duration)?

        public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], trickle: (chunk: Int, pause: Duration)? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.trickle = trickle
        }

        public init(status: Int = 200, headers: [(String, String)] = [], text: String) {
            self.init(status: status, headers: headers, body: Array(text.utf8))
        }

        /// A redirect to `location`.
        public static func redirect(_ status: Int = 302, to location: String) -> Response {
            Response(status: status, headers: [("Location", location)])
        }

        /// A JSON body.
        public static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
        }
    }

    /// The address it listens on, and the port the kernel gave it.
    public let host: String
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let log = Lock<[Request]>([])
    private let stopped = Lock(false)

    /// Starts listening on `host` (a 127.0.0.0/8 address) at a free port.
    public init(host: String = "127.0.0.1", handler: @escaping @Sendable (Request) -> Response) throws {
        self.host = host
        self.handler = handler
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HostileServerError("socket: \(errno)") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw HostileServerError("not an IPv4 address: \(host)") }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw HostileServerError("cannot listen on \(host): \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://host:port`: this origin.
    public var base: String { "http://\(host):\(port)" }

    /// Every request so far, in the order they arrived.
    public var requests: [Request] { log.withLock { $0 } }

    /// Stops accepting; connections under way end when their handler returns. The listener
    /// is shut down here (which wakes `accept`) and closed by the accepting thread itself, so
    /// no descriptor is closed under another thread's call.
    public func stop() {
        guard !stopped.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffered: [UInt8] = []
        // One request a connection, then close: enough for every client behaviour tested.
        guard let request = readRequest(connection, buffered: &buffered) else { return }
        log.withLock { $0.append(request) }
        let response = handler(request)
        var head = "HTTP/1.1 \(response.status) Hostile\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if !response.headers.contains(where: { $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding" }) {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        guard send(connection, Array(head.utf8)) else { return }
        if let trickle = response.trickle {
            var offset = 0
            while offset < response.body.count, !stopped.withLock({ $0 }) {
                let end = min(offset + max(trickle.chunk, 1), response.body.count)
                guard send(connection, Array(response.body[offset..<end])) else { return }
                offset = end
                Thread.sleep(forTimeInterval: trickle.pause / .seconds(1))
            }
        } else {
            _ = send(connection, response.body)
        }
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private func readRequest(_ connection: Int32, buffered: inout [UInt8]) -> Request? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffered.firstRange(of: separator) {
                let headText = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                var request = Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: [])
                let length = request.header("Content-Length").flatMap(Int.init) ?? 0
                var body = Array(buffered[end.upperBound...])
                while body.count < length {
                    let count = recv(connection, &chunk, chunk.count, 0)
                    guard count > 0 else { break }
                    body += chunk[..<count]
                }
                request.body = body
                return request
            }
            guard buffered.count < 1 << 20 else { return nil }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }
}

/// The server could not start.
public struct HostileServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

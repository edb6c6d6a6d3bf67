import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// Servers that misbehave, under `/_hostile/…`, for the client's tests and for trying the
/// app against them by hand (`destinations --feed http://127.0.0.1:8080/_hostile/html`):
///
/// | path | what it does |
/// |---|---|
/// | `html` | a web page instead of a timeline |
/// | `truncated` | a timeline cut off mid-JSON |
/// | `error` | `{"error": …}` with 429 |
/// | `huge` | claims 2 GB and streams zeros |
/// | `endless` | no Content-Length, zeros until the client stops reading |
/// | `lying-length` | claims 100,000 bytes, sends 100 and closes |
/// | `slow-loris` | one byte a second |
/// | `redirect-loop` | redirects to itself |
/// | `redirect-file` | redirects to `file:///etc/passwd` |
/// | `not-an-image` | text served as `image/jpeg` |
/// | `escapes` | a timeline whose text carries terminal escape sequences |
/// | `next-fails` | five posts whose next page (`error`) is always refused with 429 |
struct HostileRoutes: Sendable {
    let posts: ServedPosts
    let media: MediaShop
    let scheme: String

    func add(to router: Router<BasicRequestContext>) {
        let json: HTTPFields = [.contentType: "application/json"]
        router.get("_hostile/html") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>")))
        }
        router.get("_hostile/truncated") { request, _ in
            let page = try self.escapesPage(request, escape: false)
            return Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(bytes: page.prefix(page.count / 2))))
        }
        router.get("_hostile/error") { _, _ in
            Response(status: .tooManyRequests, headers: json, body: .init(byteBuffer: ByteBuffer(string: #"{"error": "Too many requests"}"#)))
        }
        router.get("_hostile/huge") { _, _ in
            Response(status: .ok, headers: json, body: ResponseBody(contentLength: 2_000_000_000) { writer in
                let zeros = ByteBuffer(repeating: 0x20, count: 64 << 10)
                for _ in 0..<(2_000_000_000 / (64 << 10)) { try await writer.write(zeros) }
                try await writer.finish(nil)
            })
        }
        router.get("_hostile/endless") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody { writer in
                let zeros = ByteBuffer(repeating: 0xFF, count: 64 << 10)
                for _ in 0..<100_000 { try await writer.write(zeros) }
                try await writer.finish(nil)
            })
        }
        router.get("_hostile/lying-length") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(contentLength: 100_000) { writer in
                try await writer.write(ByteBuffer(repeating: 0xFF, count: 100))
                throw FeedRoutes.ConnectionReset()
            })
        }
        router.get("_hostile/slow-loris") { _, _ in
            Response(status: .ok, headers: json, body: ResponseBody(contentLength: 600) { writer in
                for _ in 0..<600 {
                    try await writer.write(ByteBuffer(string: " "))
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
                }
                try await writer.finish(nil)
            })
        }
        router.get("_hostile/redirect-loop") { request, _ in
            Response(status: .found, headers: [.location: request.uri.path])
        }
        router.get("_hostile/redirect-file") { _, _ in
            Response(status: .found, headers: [.location: "file:///etc/passwd"])
        }
        router.get("_hostile/not-an-image") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(string: "I am not a JPEG, whatever my type says.")))
        }
        router.get("_hostile/next-fails") { request, _ in
            var headers = json
            headers[HTTPField.Name("Link")!] = "<\(scheme)://\(request.head.authority ?? "127.0.0.1")/_hostile/error>; rel=\"next\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try self.escapesPage(request, escape: false))))
        }
        router.get("_hostile/escapes") { request, _ in
            Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(bytes: try self.escapesPage(request, escape: true))))
        }
    }

    /// The first five posts as a timeline, their text carrying escape sequences if asked.
    private func escapesPage(_ request: Request, escape: Bool) throws -> [UInt8] {
        let base = "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
        var text = ""
        for index in 0..<min(5, posts.count) {
            var status = posts.status(index: index, base: base, media: media.facts(index:))
            if escape {
                status = StatusJSON(id: status.id, created_at: status.created_at, content: "<p>\u{1B}[2J\u{1B}]0;owned\u{07}Cleared?</p>", url: status.url,
                                    favourites_count: status.favourites_count, favourited: status.favourited,
                                    account: AccountJSON(id: "x", username: "x", acct: "x", display_name: "\u{1B}[31mRed\u{9B}6n"),
                                    media_attachments: status.media_attachments.map {
                                        AttachmentJSON(id: $0.id, type: $0.type, url: $0.url, preview_url: $0.preview_url,
                                                       description: "\u{1B}P+q\u{1B}\\alt", blurhash: $0.blurhash, meta: $0.meta)
                                    })
            }
            text += (text.isEmpty ? "[" : ",") + String(decoding: try JSONEncoder().encode(status), as: UTF8.self)
        }
        return Array((text + "]").utf8)
    }
}

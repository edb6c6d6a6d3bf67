internal import AsyncHTTPClient
import Foundation

/// Downloads that survive a dropped connection (issue 25: originals for the detail view).
extension HTTPFetcher {
    /// GETs `url` whole like ``fetch(_:method:headers:limit:deadline:authorized:onBytes:)``,
    /// but when the connection drops mid-body it asks for the rest (`Range: bytes=N-`) with
    /// `If-Range` naming the copy it has: the response's strong `ETag`, else its
    /// `Last-Modified`. A 206 continues the body; a 200 means the photo changed, and the
    /// body starts over. Without a validator nothing is resumed (a range of another
    /// version would make a corrupt photo), and a resume that brings no new byte ends it.
    /// `onBytes` hears every chunk with the whole body's length when known (from
    /// `Content-Length`, or the total of `Content-Range`), for progress.
    /// - Parameter maximumResumes: requests after the first, at most.
    public func fetchResuming(_ url: String, limit: Int, deadline: Duration, maximumResumes: Int = 32,
                              onBytes: (@Sendable (_ bytes: Int, _ totalLength: Int?) -> Void)? = nil) async throws(FetchError) -> FetchedBody {
        let started = ContinuousClock.now
        var body: [UInt8] = []
        var validator: String?
        var headers: [(String, String)] = []
        var resumes = 0
        while true {
            let resuming = !body.isEmpty
            let extra = resuming ? [("Range", "bytes=\(body.count)-"), ("If-Range", validator ?? "")] : []
            let head = try await open(url, method: .get, headers: extra, until: started + deadline, authorized: false)
            let status = Int(head.response.status.code)
            let length = head.response.headers.first(name: "Content-Length").flatMap(Int.init)
            var total = length
            if resuming && status == 206 {
                guard let range = ContentRange(head.response.headers.first(name: "Content-Range")), range.first == body.count else {
                    throw .status(status, message: "a range that does not continue the \(body.count) bytes received")
                }
                total = range.total
            } else if (200..<300).contains(status) {
                body.removeAll()  // the first answer, or the photo changed since (If-Range said so)
                headers = head.response.headers.map { ($0.name, $0.value) }
                validator = Self.rangeValidator(headers)
            } else {
                var message: [UInt8] = []
                try? await readBody(head.response, limit: 64 << 10, host: head.host, until: started + deadline, onBytes: nil, into: &message)
                throw statusError(status, headers: head.response.headers.map { ($0.name, $0.value) }, body: message, url: head.url)
            }
            let before = body.count, whole = total
            let progress: (@Sendable (Int, Int?) -> Void)? = onBytes.map { report in { @Sendable bytes, _ in report(bytes, whole) } }
            do throws(FetchError) {
                try await readBody(head.response, limit: limit, host: head.host, until: started + deadline, onBytes: progress, into: &body)
                return FetchedBody(status: 200, headers: headers, bytes: body, url: head.url)
            } catch {
                guard case .cutShort = error, validator != nil, body.count > before, resumes < maximumResumes else { throw error }
                resumes += 1
                resumed.withLock { $0 += 1 }
            }
        }
    }

    /// What `If-Range` may name: a strong entity tag, else the modification date (RFC 9110
    /// 13.1.5: a weak tag never); nil when the response had neither.
    static func rangeValidator(_ headers: [(String, String)]) -> String? {
        func header(_ name: String) -> String? { headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1 }
        if let tag = header("ETag")?.trimmingCharacters(in: .whitespaces), tag.hasPrefix("\""), tag.count >= 2 { return tag }
        return header("Last-Modified")
    }
}

/// `Content-Range: bytes FIRST-LAST/TOTAL` (TOTAL may be `*`).
struct ContentRange: Equatable {
    let first: Int, last: Int
    let total: Int?

    init?(_ header: String?) {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard parts.count == 2, bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last else { return nil }
        self.first = first
        self.last = last
        total = parts[1] == "*" ? nil : Int(parts[1])
    }
}

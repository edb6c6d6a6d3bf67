/// Every parser of a server's answer, fed the same bytes: what `make fuzz` runs over
/// arbitrary inputs and the unit tests replay over the kept seeds and regressions.
public enum FeedInputs {
    public static func exercise(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let page = try? TimelinePage.parse(bytes, link: text) {
            for post in page.posts {
                _ = post.blurhash.flatMap { Blurhash.decode($0, width: 8, height: 6) }
                precondition(!post.title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "a control character in a title")
            }
        }
        _ = LinkHeader.links(in: text)
        _ = Blurhash.decode(text, width: 8, height: 6)
        _ = PlainText.fromHTML(text)
        // Issue 43: the sanitiser leaves nothing a terminal acts on, one line or many; a
        // server's Retry-After is never negative nor past its cap.
        precondition(!PlainText.clean(text).unicodeScalars.contains(where: PlainText.isUnsafe), "the sanitiser let an unsafe scalar through")
        precondition(!PlainText.cleanLines(text).unicodeScalars.contains { $0 != "\n" && $0 != "\t" && PlainText.isUnsafe($0) },
                     "the sanitiser let an unsafe scalar through a line")
        // Redirects and Link targets (issue 43): what resolves is an http(s) URL with an origin,
        // and a credential's origin never matches one with another host.
        for base in ["https://social.example/api/v1/timelines/home", text] {
            if let resolved = WebTarget.resolve(text, against: base) {
                precondition(Origin(url: resolved) != nil, "a resolved target without an origin: \(resolved)")
            }
        }
        if let origin = Origin(url: text) {
            precondition(origin.scheme == "http" || origin.scheme == "https", "an origin of another scheme")
            precondition(!origin.host.isEmpty && origin.port >= 0, "an origin without a host")
        }
        for now in [Int64(0), 1_800_000_000, Int64.max] {
            if let wait = RetryAfter.seconds(text, now: now, cap: 3600) { precondition((0...3600).contains(wait), "a Retry-After out of range") }
        }
        _ = HTTPDate.parse(text)
        _ = ByteRange(header: text)?.resolved(length: bytes.count)
        // The cache's parsers (issue 26): the bytes as Cache-Control, Expires, Age and Vary
        // lines of a stored response, judged at a few times.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let control = CacheControl(parsing: lines)
        precondition((control.maxAge ?? 0) >= 0 && (control.staleIfError ?? 0) >= 0, "a negative delta-seconds")
        let fields = HTTPFields(lines.map { ("Cache-Control", $0) } + lines.map { ("Expires", $0) } + lines.prefix(2).map { ("Age", $0) }
                                + lines.prefix(2).map { ("Vary", $0) } + [("Date", text), ("Last-Modified", text), ("ETag", text)])
        for (sent, received) in [(Int64(0), Int64(0)), (1_800_000_000, 1_800_000_002), (0, 1 << 40)] {
            for now in [received, received + 86_400, 1 << 50] {
                _ = CachePolicy.use(status: 200, response: fields, requestTime: sent, responseTime: received, now: now)
                _ = CachePolicy.mayServeOnError(status: 200, response: fields, requestTime: sent, responseTime: received, now: now)
            }
        }
        _ = CachePolicy.isStorable(status: 200, response: fields)
        _ = CachePolicy.varyNames(fields).map { CachePolicy.secondaryKey(names: $0, request: fields) }
    }
}

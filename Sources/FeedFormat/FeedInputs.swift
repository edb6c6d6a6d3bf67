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
        _ = HTTPDate.parse(text)
        _ = ByteRange(header: text)?.resolved(length: bytes.count)
    }
}

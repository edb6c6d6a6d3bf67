@testable import FeedFormat
import Testing

@Suite struct PlainTextTests {
    @Test func mastodonContentBecomesOneLine() {
        let html = #"<p>Sunrise over <a href="https://x.example/tags/alps" class="mention hashtag" rel="tag">#<span>Alps</span></a></p><p>Tom &amp; Jerry&#39;s &quot;hut&quot;<br />3&#x202F;000 m</p>"#
        #expect(PlainText.fromHTML(html) == "Sunrise over #Alps Tom & Jerry's \"hut\" 3\u{202F}000 m")
    }

    @Test func escapeSequencesAreShownHarmlessNeverSent() {
        // ESC, CSI (C1), BEL, OSC title setting, a bidi override, DEL: all dropped, so what
        // remains is visible text and no byte that a terminal would act on.
        let hostile = "Red\u{1B}[31mAlert\u{9B}2J\u{1B}]0;pwned\u{07}\u{202E}evil\u{7F}end"
        let cleaned = PlainText.clean(hostile)
        #expect(cleaned == "Red[31mAlert2J]0;pwnedevilend")
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        // Through HTML and as a numeric reference too.
        #expect(PlainText.fromHTML("<b>a&#27;[2Jb&#x9b;c</b>") == "a[2Jbc")
    }

    /// Issue 43's sanitiser: every kind of character a terminal must not receive from
    /// outside is dropped, one line or many; what people write (scripts, emoji sequences,
    /// Persian's ZWNJ, a variation selector) stays.
    @Test func everyUnsafeKindIsDroppedAndPeoplesTextStays() {
        let unsafe: [Unicode.Scalar] = ["\u{0}", "\u{7}", "\u{8}", "\u{1B}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9D}", "\u{9F}",  // C0, DEL, C1
                                        "\u{61C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}",  // bidi
                                        "\u{AD}", "\u{115F}", "\u{1160}", "\u{180E}", "\u{200B}", "\u{2060}", "\u{2064}", "\u{206F}",
                                        "\u{3164}", "\u{FEFF}", "\u{FFA0}", "\u{FFF9}", "\u{FFFB}",  // invisible
                                        "\u{E0001}", "\u{E0041}", "\u{E007F}"]  // tags
        for scalar in unsafe {
            #expect(PlainText.isUnsafe(scalar), "U+\(String(scalar.value, radix: 16))")
            #expect(PlainText.clean("a\(scalar)b") == "ab", "U+\(String(scalar.value, radix: 16))")
            #expect(PlainText.cleanLines("a\(scalar)b\nc") == "ab\nc", "U+\(String(scalar.value, radix: 16))")
        }
        for kept in ["Zürich", "東京タワー", "القاهرة", "תל אביב", "👩‍👩‍👧", "🏳️‍🌈", "می‌خواهم", "1️⃣", "e\u{301}", "🇯🇵"] {
            #expect(PlainText.clean(kept) == kept, "\(kept)")
        }
        #expect(PlainText.cleanLines("one\n\ttwo\r\nthree") == "one\n\ttwo\nthree", "lines and tabs kept, a carriage return dropped")
        let plain = "nothing to drop\n"
        #expect(PlainText.cleanLines(plain) == plain)
    }

    /// No cluster costs more than a few scalars to segment, hash or draw (issue 43): a base
    /// with 10,000 combining marks, an endless ZWJ chain, an endless run of conjoining jamo
    /// are cut to ``PlainText/maximumExtendingScalars``; real sequences are untouched.
    @Test func everyClusterIsHeldToAFewScalars() {
        let zalgo = "a" + String(repeating: "\u{301}", count: 10_000) + "b"
        let cleaned = PlainText.clean(zalgo)
        #expect(cleaned.unicodeScalars.count == 2 + PlainText.maximumExtendingScalars)
        #expect(cleaned.count == 2 && cleaned.hasSuffix("b"))
        let chain = String(repeating: "👨\u{200D}", count: 5_000)
        #expect(PlainText.clean(chain).unicodeScalars.count < 10_000 && PlainText.clean(chain).count > 500, "cut into many short clusters")
        for character in PlainText.clean(chain) { #expect(character.unicodeScalars.count <= 1 + PlainText.maximumExtendingScalars) }
        let jamo = String(repeating: "\u{1100}", count: 3_000)
        for character in PlainText.clean(jamo) { #expect(character.unicodeScalars.count <= 1 + PlainText.maximumExtendingScalars) }
        #expect(PlainText.cleanLines(zalgo + "\n").unicodeScalars.count == 3 + PlainText.maximumExtendingScalars)
        // Joiners that reset nothing: ZWNJ between marks, prepended concatenation marks.
        let zwnj = "a" + String(repeating: "\u{200C}\u{301}", count: 5_000)
        let prepend = String(repeating: "\u{600}", count: 5_000) + "b"
        for hostile in [zwnj, prepend] {
            for character in PlainText.clean(hostile) { #expect(character.unicodeScalars.count <= 1 + PlainText.maximumExtendingScalars) }
        }
        for real in ["👨🏽\u{200D}👩🏽\u{200D}👧🏽\u{200D}👦🏽", "🏳️‍🌈", "Tiếng Việt", "한국어 ᄒᆞᆫ", "नमस्ते", "ཀྵྐྵ", "e\u{301}\u{302}\u{303}"] {
            #expect(PlainText.clean(real) == real, "\(real)")
        }
    }

    @Test func malformedMarkupNeverFails() {
        #expect(PlainText.fromHTML("plain text") == "plain text")
        #expect(PlainText.fromHTML("a < b") == "a")  // an unclosed tag ends the text
        #expect(PlainText.fromHTML("fish &chips; &unknown; & more") == "fish &chips; &unknown; & more")
        #expect(PlainText.fromHTML(#"<img alt="1 > 0" src=x>after"#) == "after")
        #expect(PlainText.fromHTML("<script>alert('x')</script>shown<style>p{}</style>") == "shown")
        #expect(PlainText.fromHTML("&#0;&#xD800;&#99999999;&#x;") == "\u{FFFD}\u{FFFD}\u{FFFD}&#x;")
        #expect(PlainText.fromHTML("   \n\t ") == "")
        #expect(PlainText.fromHTML("<p></p><p>x</p>") == "x")
    }

    @Test func whiteSpaceCollapses() {
        #expect(PlainText.clean("  a\n\n b\t\tc  ") == "a b c")
        #expect(PlainText.clean("\u{A0}x\u{2028}y") == "x y")
    }
}

@Suite struct LinkHeaderTests {
    @Test func mastodonsHeader() {
        let value = #"<https://m.example/api/v1/timelines/public?limit=40&max_id=1099>; rel="next", <https://m.example/api/v1/timelines/public?limit=40&min_id=1140>; rel="prev""#
        #expect(LinkHeader.next(in: value) == "https://m.example/api/v1/timelines/public?limit=40&max_id=1099")
        #expect(LinkHeader.links(in: value)["prev"] == "https://m.example/api/v1/timelines/public?limit=40&min_id=1140")
    }

    @Test func variationsServersSend() {
        #expect(LinkHeader.next(in: "<a>;rel=next") == "a")
        #expect(LinkHeader.next(in: #"<a>; title="x, y; z"; rel="prev next""#) == "a")
        #expect(LinkHeader.next(in: #"<a>; REL="Next""#) == "a")
        #expect(LinkHeader.next(in: #"<first>; rel="next", <second>; rel="next""#) == "first")
        #expect(LinkHeader.next(in: #"<https://h/p?q=a,b>; rel="next""#) == "https://h/p?q=a,b")
    }

    @Test func malformedIsNoNextPage() {
        for value in ["", "garbage", "<unclosed; rel=next", #"<>; rel="next""#, #"<a>; rel="prev""#, ";;;,,,<", "<a>; rel"] {
            #expect(LinkHeader.next(in: value) == nil, "\(value)")
        }
        #expect(LinkHeader.next(in: nil) == nil)
    }
}

@Suite struct BlurhashTests {
    @Test func aKnownHashDecodesToItsPicture() throws {
        // The reference implementation's example (a photo of a person in a jacket):
        // 4 × 3 components; darker at the bottom than at the top.
        let grid = try #require(Blurhash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 8, height: 6))
        #expect(grid.rgb.count == 48)
        func luma(_ rgb: UInt32) -> Int { Int(rgb >> 16 & 255) * 3 + Int(rgb >> 8 & 255) * 6 + Int(rgb & 255) }
        let top = grid.rgb[0..<8].map(luma).reduce(0, +), bottom = grid.rgb[40..<48].map(luma).reduce(0, +)
        #expect(top != bottom)
    }

    @Test func aSolidColourRoundTripsExactly() throws {
        for color: UInt32 in [0xFF0000, 0x00FF00, 0x123456, 0xFFFFFF, 0x000000] {
            let hash = Blurhash.encode(rgb: .init(repeating: color, count: 16), width: 4, height: 4, componentsX: 1, componentsY: 1)
            #expect(hash.count == 6)
            let grid = try #require(Blurhash.decode(hash, width: 3, height: 2))
            #expect(grid.rgb.allSatisfy { $0 == color }, "\(hash)")
        }
    }

    @Test func aGradientKeepsItsDirection() throws {
        // Red on the left, blue on the right.
        var pixels: [UInt32] = []
        for _ in 0..<16 { for x in 0..<32 { pixels.append(UInt32(255 - x * 8) << 16 | UInt32(x * 8)) } }
        let hash = Blurhash.encode(rgb: pixels, width: 32, height: 16)
        #expect(hash.count == 4 + 2 * 4 * 3)
        let grid = try #require(Blurhash.decode(hash, width: 8, height: 4))
        let left = grid.rgb[8], right = grid.rgb[15]
        #expect(left >> 16 & 255 > left & 255)
        #expect(right & 255 > right >> 16 & 255)
        // Encoding what it decodes to keeps the average colour (the DC term, characters 2..<6)
        // within a few steps per channel (the reference basis samples at x, not x + 0.5, so it is not exactly orthogonal); the AC terms' coarse quantisation may move more.
        let again = Blurhash.encode(rgb: try #require(Blurhash.decode(hash, width: 32, height: 16)).rgb, width: 32, height: 16)
        let dc = try #require(Blurhash.decode83(Array(hash.utf8)[2..<6])), dcAgain = try #require(Blurhash.decode83(Array(again.utf8)[2..<6]))
        for shift in [0, 8, 16] { #expect(abs((dc >> shift & 255) - (dcAgain >> shift & 255)) <= 8, "\(hash) → \(again)") }
    }

    @Test func invalidHashesAreNil() {
        for hash in ["", "L", "LEHV6nWB2yk8pyo0adR*.7kCMdn", "LEHV6nWB2yk8pyo0adR*.7kCMdnjj", "LEHV6nWB2yk8pyo0adR*.7kCMdn\u{E9}", "\"\"\"\"\"\"", "000000\u{1B}"] {
            #expect(Blurhash.decode(hash, width: 4, height: 4) == nil, "\(hash)")
        }
        #expect(Blurhash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 0, height: 4) == nil)
        #expect(Blurhash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 65, height: 4) == nil)
    }
}

/// Text from outside this program made safe to show in a terminal: the one sanitiser.
///
/// A status's `content` is HTML and its other fields are free text from strangers; a URL,
/// a host name, a server's error message, a file name in a photo folder may all carry an
/// escape sequence meant for the reader's terminal (a title that recolours the screen,
/// moves the cursor, sets the window title, or puts text on the clipboard with OSC 52).
/// Every C0 and C1 control character (ESC and CSI among them) and DEL is dropped, so what is
/// left of such a sequence is plain, visible text; so are the characters that change how
/// text around them reads without being seen: bidirectional controls (overrides,
/// embeddings, isolates, marks; "Trojan Source"), invisible formatting characters and tag
/// characters (``isUnsafe(_:)``). ZWJ and ZWNJ stay: emoji sequences and Persian need them.
///
/// ``clean(_:)`` makes one line (a cell's title, a host in a message); ``cleanLines(_:)``
/// keeps line breaks and tabs (a message of several lines, the exit summary): every path
/// that prints text that did not come from this program uses one of the two.
public enum PlainText {
    /// The most scalars that may extend one base character (combining marks, a ZWJ and what
    /// it joins, variation selectors, emoji modifiers, conjoining jamo): the longest emoji
    /// sequence in use (a family with skin tones) has 10. A cluster of 10,000 combining
    /// marks is one `Character`, which Swift normalises on every comparison and hash: a
    /// title made of one cost the main thread up to 1.5 s a frame (issue 43).
    public static let maximumExtendingScalars = 16

    /// `text` as one terminal-safe line, each grapheme cluster held to
    /// ``maximumExtendingScalars`` (before anything normalises it).
    public static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var cluster = ClusterCap()
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                pendingSpace = !out.isEmpty
                cluster = ClusterCap()
                continue
            }
            if isUnsafe(scalar) || !cluster.keeps(scalar) { continue }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(scalar)
        }
        return String(out)
    }

    /// `text` made safe for a terminal, line breaks (`\n`) and tabs kept: everything else
    /// ``isUnsafe(_:)`` names is dropped, and a carriage return too (it would move the
    /// cursor back over what was written).
    /// - Complexity: O(n); text with nothing to drop is returned as it was.
    public static func cleanLines(_ text: String) -> String {
        var cluster = ClusterCap()
        guard text.unicodeScalars.contains(where: { ($0 != "\n" && $0 != "\t" && isUnsafe($0)) || !cluster.keeps($0) }) else { return text }
        var out = String.UnicodeScalarView()
        cluster = ClusterCap()
        for scalar in text.unicodeScalars where (scalar == "\n" || scalar == "\t" || !isUnsafe(scalar)) && cluster.keeps(scalar) {
            out.append(scalar)
        }
        return String(out)
    }

    /// The visible text of an HTML fragment as one terminal-safe line: tags removed (a
    /// paragraph or line break becomes a space; `script` and `style` bodies are dropped),
    /// character references decoded (named ones HTML fragments use, decimal and hex), then
    /// ``clean(_:)``. Malformed markup never fails: an unclosed `<` ends the text, an
    /// unknown reference stays as written.
    /// - Complexity: O(n) in the length of `html`.
    public static func fromHTML(_ html: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(html.unicodeScalars)
        var index = 0
        var skippingUntil: String?  // inside <script> or <style>: their closing tag
        // Mastodon's links: `<span class="invisible">https://</span>` parts are not shown,
        // and a `<span class="ellipsis">` shown part ends in "…" (as its web UI draws them).
        var spans: [(invisible: Bool, ellipsis: Bool)] = []
        var hiddenDepth = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                guard let (tag, end) = readTag(scalars, from: index) else { break }
                index = end
                if let closing = skippingUntil {
                    if tag.closing && tag.name == closing { skippingUntil = nil }
                    continue
                }
                if !tag.closing && !tag.selfClosing && (tag.name == "script" || tag.name == "style") { skippingUntil = tag.name }
                if tag.name == "span" && !tag.selfClosing {
                    if !tag.closing {
                        let span = (invisible: tag.classes.contains("invisible"), ellipsis: tag.classes.contains("ellipsis"))
                        if span.invisible { hiddenDepth += 1 }
                        spans.append(span)
                    } else if let span = spans.popLast() {
                        if span.invisible { hiddenDepth -= 1 }
                        if span.ellipsis && hiddenDepth == 0 { out.append("…") }
                    }
                    continue
                }
                if Self.breakingTags.contains(tag.name) { out.append(" ") }
                continue
            }
            if hiddenDepth > 0 {
                index += 1
                continue
            }
            index += 1
            if skippingUntil != nil { continue }
            if scalar == "&", let (decoded, end) = readReference(scalars, from: index) {
                out.append(contentsOf: decoded.unicodeScalars)
                index = end
                continue
            }
            out.append(scalar)
        }
        return clean(String(out))
    }

    /// Tags whose boundary separates words.
    static let breakingTags: Set<String> = ["br", "p", "div", "li", "ul", "ol", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "pre", "hr"]

    struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        /// The words of its `class` attribute (Mastodon marks a link's hidden parts `invisible`
        /// and the cut end of a shown one `ellipsis`).
        var classes: [Substring] = []
    }

    /// The tag opening at `start` (a `<`) and the index after its `>`, quoted attribute
    /// values skipped whole; nil when no `>` closes it.
    static func readTag(_ scalars: [Unicode.Scalar], from start: Int) -> (Tag, Int)? {
        var index = start + 1
        var closing = false
        if index < scalars.count, scalars[index] == "/" {
            closing = true
            index += 1
        }
        var name = String.UnicodeScalarView()
        while index < scalars.count, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
            name.append(contentsOf: String(scalars[index]).lowercased().unicodeScalars)
            index += 1
        }
        var quote: Unicode.Scalar?
        var last: Unicode.Scalar = " "
        var attributes = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if attributes.count < 512 { attributes.append(scalar) }
            if let open = quote {
                if scalar == open { quote = nil }
                continue
            }
            if scalar == "\"" || scalar == "'" {
                quote = scalar
                continue
            }
            if scalar == ">" {
                return (Tag(name: String(name), closing: closing, selfClosing: last == "/", classes: classes(in: String(attributes))), index)
            }
            last = scalar
        }
        return nil
    }

    /// The words of a `class="…"` in a tag's attribute text (lowercased), empty without one.
    static func classes(in attributes: String) -> [Substring] {
        let lowered = attributes.lowercased()
        guard let range = lowered.range(of: "class=") else { return [] }
        var rest = lowered[range.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return [] }
        rest = rest.dropFirst()
        let value = rest.prefix { $0 != quote }
        return value.split(separator: " ")
    }

    /// The character reference after an `&` at `start` (`amp;`, `#39;`, `#x1F600;`) and the
    /// index after its `;`; nil for anything else (the `&` then stays as written).
    static func readReference(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int)? {
        var body = String.UnicodeScalarView()
        var index = start
        while index < scalars.count, index - start <= 10 {
            let scalar = scalars[index]
            index += 1
            if scalar == ";" {
                let text = String(body)
                if text.hasPrefix("#") {
                    let digits = text.dropFirst()
                    let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                    // NUL, surrogates and out-of-range code points read as U+FFFD, as HTML says.
                    guard let value else { return nil }
                    return (String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}").replacingOccurrences(of: "\0", with: "\u{FFFD}"), index)
                }
                guard let named = namedReferences[text] else { return nil }
                return (named, index)
            }
            guard scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "#" else { return nil }
            body.append(scalar)
        }
        return nil
    }

    /// The named references that occur in statuses' HTML (Mastodon escapes only the first
    /// five; other servers use a few more).
    static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "middot": "·", "bull": "•",
        "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß",
    ]

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0B}" || scalar == "\u{0C}"
            || scalar == "\u{85}" || scalar == "\u{A0}" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// Counts the scalars that extend the current base character, scalar by scalar, without
    /// segmenting graphemes (what is being bounded is the cost of segmenting them): a
    /// combining or spacing mark, a variation selector, an emoji modifier, a ZWJ and the
    /// scalar after it, a conjoining jamo after another. Past the cap, such scalars are
    /// dropped: the rest of a run of marks or jamo, or the ZWJ that would join one more
    /// (what follows it then starts a cluster of its own).
    struct ClusterCap {
        private var extending = 0
        private var afterJoiner = false
        private var afterJamo = false

        mutating func keeps(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < 0x300 {  // ASCII and Latin-1: always a base
                extending = 0
                afterJoiner = false
                afterJamo = false
                return true
            }
            let jamo = (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
            let extends = afterJoiner || (jamo && afterJamo) || Self.isExtending(scalar)
            afterJoiner = false
            if extends {
                // Past the cap: dropped, and so is the rest of the run (jamo after jamo would
                // still join; a ZWJ's partner, its ZWJ gone, starts a cluster of its own).
                guard extending < PlainText.maximumExtendingScalars else { return false }
                extending += 1
            } else {
                extending = 0
            }
            afterJoiner = value == 0x200D
            afterJamo = jamo
            return true
        }

        /// Whatever may join a cluster to its neighbour: marks, Unicode's Grapheme_Extend set
        /// (ZWNJ among it), every format character (ZWJ, and the prepended concatenation
        /// marks U+0600–U+0605 that join what follows), emoji modifiers.
        static func isExtending(_ scalar: Unicode.Scalar) -> Bool {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
            default: return properties.isGraphemeExtend || properties.isEmojiModifier || properties.isVariationSelector
            }
        }
    }

    /// What a terminal must never receive from outside: C0, DEL and C1 controls (ESC, CSI,
    /// OSC and the rest); the bidirectional controls (U+061C, LRM and RLM, the embeddings
    /// and overrides U+202A–U+202E, the isolates U+2066–U+2069), which would reorder the
    /// cells around them; invisible characters that show nothing and hide text (soft
    /// hyphen, U+115F/U+1160 Hangul fillers, U+180E, zero-width space, word joiner and
    /// invisible operators U+2060–U+2064, deprecated format controls U+206A–U+206F,
    /// U+3164, U+FEFF, U+FFA0, interlinear annotations U+FFF9–U+FFFB); and the tag
    /// characters U+E0000–U+E007F, which carry hidden ASCII.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return false }  // printable ASCII: the common case
        switch value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0xAD, 0x61C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200E, 0x200F, 0x3164, 0xFEFF, 0xFFA0: return true
        case 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F, 0xFFF9...0xFFFB: return true
        case 0xE0000...0xE007F: return true
        default: return false
        }
    }
}

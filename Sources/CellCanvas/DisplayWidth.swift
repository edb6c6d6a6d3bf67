/// How many terminal columns a character takes: 0, 1 or 2.
///
/// The rules terminals follow (wcwidth and Unicode's East Asian Width): combining marks
/// and zero-width characters take none, CJK ideographs, Hangul, fullwidth forms and emoji
/// presentation take two. Grapheme clusters count by their first scalar, with an emoji
/// variation selector (U+FE0F) making a symbol wide.
public enum DisplayWidth {
    /// The columns `character` takes (a cluster counts by its first scalar, or 2 with U+FE0F).
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.value >= 0x2000 { return 2 }
        return of(first)
    }

    /// The columns `scalar` takes: 0 for controls and combining marks, 2 for wide characters.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }  // ASCII: no property lookup
        if v == 0 || (v < 0x20) || (0x7F..<0xA0).contains(v) { return 0 }
        if (0x0300...0x036F).contains(v) || (0x200B...0x200F).contains(v) || (0xFE00...0xFE0F).contains(v) || v == 0x20E3 { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x1F680...0x1F6FF).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    /// Columns a string takes.
    /// - Complexity: O(characters).
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }
}

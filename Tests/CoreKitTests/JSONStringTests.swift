import CoreKit
import Foundation
import Testing

@Suite struct JSONStringTests {
    /// Whatever a file name holds, the literal parses back to the same text.
    @Test func everyAwkwardCharacterRoundTrips() throws {
        for text in ["plain", "pipe \"1\".jpg", "back\\slash", "line\nbreak\ttab\rreturn", "bell\u{7}", "ünïcödé ♥ 🇵🇪", ""] {
            let literal = JSONString.quoted(text)
            let parsed = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
            #expect(parsed == [text], "\(literal)")
        }
    }
}

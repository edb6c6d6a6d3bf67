import FeedFormat
import Foundation
import Testing

/// Every feed input `make fuzz` starts from or found a bug with goes through every parser
/// again: they return or refuse, never trap.
@Suite struct FeedFuzzRegressionTests {
    @Test func feedInputsParseOrFailCleanly() throws {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
        var inputs = 0
        for kind in ["Seeds", "Regressions"] {
            let folder = fuzz.appendingPathComponent("\(kind)/feed")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
                FeedInputs.exercise(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
                inputs += 1
            }
        }
        #expect(inputs >= 7)
        // The seed timeline is a real one: it parses to posts.
        let timeline = try Data(contentsOf: fuzz.appendingPathComponent("Seeds/feed/timeline.json"))
        #expect(try TimelinePage.parse(Array(timeline), link: nil).posts.count == 3)
    }
}

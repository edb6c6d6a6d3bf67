import Foundation
import Testing

/// The house rules of issue 44, checked on the sources: folders that show the
/// architecture, short files, types of few stored properties, and one writer of the app's
/// state. Each rule names what breaks it, so a change that grows a hub fails here first.
@Suite struct HouseRulesTests {
    static let sources = ArchitectureTests.root.appendingPathComponent("Sources")

    /// At most this many Swift files directly in one folder (Nuke's layout: a folder per concern).
    static let filesPerFolder = 15
    static let linesPerFile = 400
    static let storedPropertiesPerType = 12

    /// Plain data records, exempt from the stored-property rule, and why each is one: values
    /// that carry figures or settings from one place to another and decide nothing.
    static let recordReasons: [String: String] = [
        "GridReport": "the run's report, field by field",
        "NetworkReport": "the report's network section",
        "HitchReport": "the meter's figures for the report",
        "RunStats": "per-frame figures summed for the report",
        "GridOptions": "the resolved flags of a run",
        "GridCommand": "the grid's flags as ArgumentParser declares them",
        "OutputStatistics": "the terminal output's figures",
        "FeedPost": "one parsed status",
        "Figures": "the grid's counters for the HUD and the report",
        "FrameRecord": "one frame's times",
        "HeaderFacts": "what the header shows",
        "Theme": "a palette of colours",
        "FeedServer/FeedServer.swift:Options": "destinations-feed's settings",
        "FeedServer/ServerStats.swift:Snapshot": "the feed server's counters at one moment",
        "NetworkLoadCounters": "the photo loader's counters",
    ]
    static var records: Set<String> { Set(recordReasons.keys) }

    /// The key a type is exempted under: its name, or `file:name` where the name is common.
    static func recordKey(_ file: String, _ name: String) -> String? {
        if recordReasons["\(file):\(name)"] != nil { return "\(file):\(name)" }
        return recordReasons[name] != nil ? name : nil
    }

    /// Every Swift file under Sources, by path relative to it.
    static func swiftFiles() -> [String] {
        guard let files = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        return files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func noFolderHoldsMoreThanFifteenFiles() {
        var perFolder: [String: Int] = [:]
        for file in Self.swiftFiles() { perFolder[(file as NSString).deletingLastPathComponent, default: 0] += 1 }
        let crowded = perFolder.filter { $0.value > Self.filesPerFolder }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        #expect(crowded.isEmpty, "folders over \(Self.filesPerFolder) Swift files: \(crowded)")
    }

    @Test func noFileIsLongerThanFourHundredLines() throws {
        var long: [String] = []
        for file in Self.swiftFiles() {
            let lines = try Self.text(file).split(separator: "\n", omittingEmptySubsequences: false).count
            if lines > Self.linesPerFile { long.append("\(file): \(lines)") }
        }
        #expect(long.isEmpty, "files over \(Self.linesPerFile) lines: \(long)")
    }

    @Test func noTypeHoldsMoreThanTwelveStoredProperties() throws {
        var heavy: [String] = []
        for file in Self.swiftFiles() {
            for type in SwiftScan.types(in: try Self.text(file)) where type.kind != "enum" && Self.recordKey(file, type.name) == nil {
                if type.storedProperties.count > Self.storedPropertiesPerType {
                    heavy.append("\(file): \(type.kind) \(type.name) has \(type.storedProperties.count) (\(type.storedProperties.joined(separator: ", ")))")
                }
            }
        }
        #expect(heavy.isEmpty, "types over \(Self.storedPropertiesPerType) stored properties:\n\(heavy.joined(separator: "\n"))")
    }

    /// The records exempted are structs that exist: the list cannot hide a class.
    @Test func theExemptRecordsAreStructs() throws {
        var found: [String: String] = [:]
        for file in Self.swiftFiles() {
            for type in SwiftScan.types(in: try Self.text(file)) {
                if let key = Self.recordKey(file, type.name) { found[key] = type.kind }
            }
        }
        #expect(Set(found.keys) == Self.records, "missing: \(Self.records.subtracting(found.keys))")
        #expect(found.values.allSatisfy { $0 == "struct" }, "\(found.filter { $0.value != "struct" })")
    }

    /// The view owns the collection view and the image store: no other file of the app
    /// reaches into them (it asks the view).
    @Test func nothingOutsideTheViewTouchesTheCollectionViewOrTheStore() throws {
        var reaching: [String] = []
        for file in Self.swiftFiles() where file.hasPrefix("destinations/") && !file.contains("/Grid/View/") {
            let text = try Self.text(file)
            for needle in ["view.collection", "view.store", "view.posts.source", ".collection."] where text.contains(needle) {
                reaching.append("\(file): \(needle)")
            }
        }
        #expect(reaching.isEmpty, "\(reaching)")
    }

    /// The scanner itself, on a type it must read right.
    @Test func theScannerCountsStoredPropertiesOnly() {
        let source = """
        final class Sample {
            let a: Int, b = "x { y", c: [Int] = []
            private(set) var d = 0
            static let shared = 1
            var computed: Int { a + 1 }
            lazy var e = Thing { _ in 2 }
            var f: Int = 0 { didSet { print(f) } }
            // var commented = 3
            struct Inner { var g = 1; let h: Int }
            func work() { var local = 4; local += 1 }
        }
        """
        let types = SwiftScan.types(in: source)
        #expect(types.first { $0.name == "Sample" }?.storedProperties == ["a", "b", "c", "d", "e", "f"])
        #expect(types.first { $0.name == "Inner" }?.storedProperties == ["g", "h"])
    }

    /// The app's state has one writer: every stored property of `GridModel` can be set only
    /// inside it, its changes are only in `update`, and only the loop's `send` calls it.
    @Test func nothingOutsideTheModelWritesAppState() throws {
        let model = try #require(Self.swiftFiles().first { $0.hasSuffix("/GridModel.swift") })
        let type = try #require(SwiftScan.types(in: try Self.text(model)).first { $0.name == "GridModel" })
        #expect(!type.storedProperties.isEmpty)
        #expect(type.publiclySettable.isEmpty, "GridModel properties others could set: \(type.publiclySettable)")
        var callers: [String] = []
        for file in Self.swiftFiles() where file.hasPrefix("destinations/") && !file.contains("/Model/") {
            let text = try Self.text(file)
            if text.contains("extension GridModel") { callers.append("\(file) extends GridModel") }
            let updates = text.components(separatedBy: "model.update(").count - 1
            if updates > 0 && !file.hasSuffix("Loop/GridLoop.swift") { callers.append("\(file) calls model.update") }
            if file.hasSuffix("Loop/GridLoop.swift") && updates != 1 { callers.append("\(file) calls model.update \(updates) times (send only)") }
        }
        #expect(callers.isEmpty, "\(callers)")
    }
}

import Foundation
import Testing

/// ARCHITECTURE.md draws the layers; these tests keep the drawing, Package.swift and the
/// sources in agreement, so the document cannot drift from the code.
@Suite struct ArchitectureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Target {
        let name: String
        let path: String
        let dependencies: Set<String>
    }

    /// The non-test targets of Package.swift (or of the manifest at `manifest`) that have
    /// Swift sources, with their dependencies (products by their name).
    static func packageTargets(manifest: String = "Package.swift") throws -> [Target] {
        let text = try String(contentsOf: root.appendingPathComponent(manifest), encoding: .utf8)
        var targets: [Target] = []
        for opener in [".target(", ".executableTarget("] {
            var searchStart = text.startIndex
            while let found = text.range(of: opener, range: searchStart..<text.endIndex) {
                // The call's text, up to its matching parenthesis.
                var depth = 0, end = found.upperBound
                for index in text[found.lowerBound...].indices {
                    if text[index] == "(" { depth += 1 }
                    if text[index] == ")" { depth -= 1; if depth == 0 { end = index; break } }
                }
                let call = String(text[found.lowerBound...end])
                searchStart = end
                guard let name = firstMatch(#"name:\s*"([^"]+)""#, in: call) else { continue }
                let path = firstMatch(#"path:\s*"([^"]+)""#, in: call) ?? "Sources/\(name)"
                var dependencies = Set<String>()
                if let list = firstMatch(#"dependencies:\s*\[([^\]]*)\]"#, in: call) {
                    let products = allMatches(#"\.product\(name:\s*"([^"]+)""#, in: list)
                    let withoutProducts = list.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
                    dependencies = Set(allMatches(#""([^"]+)""#, in: withoutProducts) + products)
                }
                targets.append(Target(name: name, path: path, dependencies: dependencies))
            }
        }
        return targets
    }

    /// The ```edges block of ARCHITECTURE.md: target → what it may import.
    static func drawnEdges() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let block = try #require(firstMatch(#"```edges\n([\s\S]*?)```"#, in: text), "ARCHITECTURE.md has an ```edges block")
        var edges: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") where line.contains(":") {
            let parts = line.split(separator: ":", maxSplits: 1)
            let names = parts.count > 1 ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : []
            edges[String(parts[0]).trimmingCharacters(in: .whitespaces)] = Set(names)
        }
        return edges
    }

    /// An import line: attributes (`@testable`, `@_exported`, `@preconcurrency`) and an access
    /// level (`public`, `package`, `internal`, `fileprivate`, `private`) before `import`, and a
    /// kind (`struct`, `class`, …) after it, are all taken.
    static let importPattern = #"(?m)^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#

    /// Every `import X` of the Swift files under `path` (`@testable` and attributes too).
    static func imports(under path: String) throws -> [(file: String, module: String)] {
        let folder = root.appendingPathComponent(path)
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var result: [(String, String)] = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for module in allMatches(Self.importPattern, in: text) {
                result.append(("\(path)/\(file)", module))
            }
        }
        return result
    }

    /// Modules of the system and the toolchain, not layers of ours.
    static let system: Set<String> = ["Glibc", "Darwin", "Foundation", "Dispatch", "Synchronization", "Testing"]

    @Test func theDrawingListsEveryEdgeOfThePackageAndNoOther() throws {
        let drawn = try Self.drawnEdges()
        for target in try Self.packageTargets() {
            #expect(drawn[target.name] == target.dependencies,
                    "\(target.name): Package.swift says \(target.dependencies.sorted()), ARCHITECTURE.md \(drawn[target.name]?.sorted() ?? [])")
        }
        let declared = Set(try Self.packageTargets().map(\.name))
        #expect(Set(drawn.keys) == declared, "targets drawn but not declared: \(Set(drawn.keys).subtracting(declared).sorted())")
    }

    /// The import scan sees every form of import (a form it missed would be an edge no test
    /// checks): access levels, `@_exported`, attributes, and imports of one declaration.
    @Test func theImportScanSeesEveryFormOfImport() {
        let text = """
        import A
        @testable import B
        public import C
        internal import D
        @_exported import E
        @preconcurrency package import F
        import struct G.Thing
          fileprivate import H
        // import NotThis
        let important = 1
        """
        #expect(Self.allMatches(Self.importPattern, in: text) == ["A", "B", "C", "D", "E", "F", "G", "H"])
    }

    @Test func everyImportIsAnEdgeOfItsTarget() throws {
        let targets = try Self.packageTargets()
        #expect(targets.count >= 10, "parsed \(targets.map(\.name))")
        for target in targets {
            for (file, module) in try Self.imports(under: target.path) where !Self.system.contains(module) && module != target.name {
                #expect(target.dependencies.contains(module), "\(file) imports \(module), which \(target.name) may not (see ARCHITECTURE.md)")
            }
        }
    }

    /// Examples/ is an outside package: it may use the toolkit's library products and
    /// nothing else of it, and every import of an example is a dependency it declares.
    @Test func theExamplesUseOnlyTheToolkitsLibraryProducts() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = Set(Self.allMatches(#"\.library\(name:\s*"([^"]+)""#, in: manifest))
        #expect(libraries.isSuperset(of: ["CellCanvas", "RenderLoop", "DiffableData", "CollectionKit", "ImagePipeline", "TerminalFront"]))
        let examples = try Self.packageTargets(manifest: "Examples/Package.swift")
        #expect(Set(examples.map(\.name)) == ["hello-list", "process-list", "file-browser"])
        for example in examples {
            #expect(example.dependencies.isSubset(of: libraries),
                    "\(example.name) depends on \(example.dependencies.subtracting(libraries).sorted()), which are not library products")
            let files = try Self.imports(under: "Examples/\(example.path)")
            #expect(!files.isEmpty, "no imports read under Examples/\(example.path)")
            for (file, module) in files where !Self.system.contains(module) {
                #expect(example.dependencies.contains(module), "\(file) imports \(module), which \(example.name) does not declare")
            }
        }
    }

    @Test func libcIsBehindOnePlatformFileAndNcursesBehindOne() throws {
        for target in try Self.packageTargets() {
            let imports = try Self.imports(under: target.path)
            for (file, module) in imports {
                if module == "Glibc" || module == "Darwin" {
                    #expect(file.hasSuffix("/Platform.swift") || target.path.hasPrefix("Tests") || target.name == "destinations-bench",
                            "\(file) imports \(module): the C library belongs in its target's Platform.swift")
                }
                if module == "CNcursesw" { #expect(file == "Sources/TerminalFront/Session/Curses.swift", "\(file) calls ncurses: only Curses.swift may") }
            }
            let platformFiles = Set(imports.filter { $0.module == "Glibc" }.map(\.file))
            #expect(platformFiles.count <= 1 || target.name == "destinations-bench", "\(target.name): \(platformFiles.sorted())")
        }
    }

    @Test func thePureLayersDoNotUseFoundation() throws {
        for layer in ["CoreKit", "DiffableData", "CellCanvas", "RenderLoop", "CollectionKit"] {
            for (file, module) in try Self.imports(under: "Sources/\(layer)") where module == "Foundation" {
                Issue.record("\(file) imports Foundation")
            }
        }
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? { allMatches(pattern, in: text).first }

    static func allMatches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}

import Foundation

/// A small reader of Swift source, enough for the house rules: the types declared and
/// their stored properties. Comments and string literals are blanked first, so braces and
/// `var` inside them do not count.
enum SwiftScan {
    struct TypeDeclaration {
        var kind: String
        var name: String
        var storedProperties: [String] = []
        /// Stored `var`s whose setter is not private.
        var publiclySettable: [String] = []
    }

    /// The source with comments and string contents replaced by spaces (newlines kept).
    static func blanked(_ text: String) -> [Character] {
        var out: [Character] = []
        let chars = Array(text)
        var index = 0
        func at(_ offset: Int) -> Character? { index + offset < chars.count ? chars[index + offset] : nil }
        while index < chars.count {
            let c = chars[index]
            if c == "/" && at(1) == "/" {
                while index < chars.count && chars[index] != "\n" { out.append(" "); index += 1 }
            } else if c == "/" && at(1) == "*" {
                while index < chars.count && !(chars[index] == "*" && at(1) == "/") { out.append(chars[index] == "\n" ? "\n" : " "); index += 1 }
                out.append(contentsOf: "  "); index += 2
            } else if c == "\"" && at(1) == "\"" && at(2) == "\"" {
                out.append(contentsOf: "\"\"\""); index += 3
                while index < chars.count && !(chars[index] == "\"" && at(1) == "\"" && at(2) == "\"") { out.append(chars[index] == "\n" ? "\n" : " "); index += 1 }
                out.append(contentsOf: "\"\"\""); index += 3
            } else if c == "\"" {
                out.append("\""); index += 1
                while index < chars.count && chars[index] != "\"" && chars[index] != "\n" {
                    if chars[index] == "\\" { out.append(" "); index += 1 }
                    if index < chars.count { out.append(" "); index += 1 }
                }
                out.append("\""); index += 1
            } else {
                out.append(c); index += 1
            }
        }
        return out
    }

    static let declarationPattern = (#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|final|indirect)\s+)*(class|struct|actor|enum)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
    static let propertyPattern = (#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|private|fileprivate|internal|package|open|nonisolated|final|override|lazy|weak|unowned|static|class)(?:\((?:set|unsafe)\))?\s+)*)(let|var)\s+(.*)$"#)

    /// Every class, struct, actor and enum in `text`, with the stored properties declared
    /// directly in its body.
    static func types(in text: String) -> [TypeDeclaration] {
        let source = blanked(text)
        let declaration = try! Regex(declarationPattern), property = try! Regex(propertyPattern)
        // Split into lines with the brace depth at each line's start; statements split by `;` too.
        var types: [TypeDeclaration] = []
        var stack: [(index: Int?, depth: Int)] = []  // open type bodies: which type, at which depth its members sit
        var depth = 0
        var pending: Int?  // a type declared, its body's brace not yet seen
        var line: [Character] = []
        func finish(_ statement: String, depthAtStart: Int, opensBody: Bool = false) {
            if let match = statement.firstMatch(of: declaration), !["func", "var", "let", "init", "subscript"].contains(String(match.output[2].substring ?? "")) {
                types.append(TypeDeclaration(kind: String(match.output[1].substring ?? ""), name: String(match.output[2].substring ?? "")))
                pending = types.count - 1
            }
            guard let top = stack.last, let owner = top.index, depthAtStart == top.depth,
                  let match = statement.firstMatch(of: property) else { return }
            let modifiers = String(match.output[1].substring ?? ""), keyword = String(match.output[2].substring ?? "")
            if modifiers.contains("static") || modifiers.contains("class ") { return }
            let rest = String(match.output[3].substring ?? "")
            // `var x: T {` with no value: a computed property (or an observer of one without
            // an initial value, rare enough to leave out).
            if opensBody && !rest.contains("=") { return }
            for name in storedNames(rest) {
                types[owner].storedProperties.append(name)
                if keyword == "var" && !modifiers.contains("private") { types[owner].publiclySettable.append(name) }
            }
        }
        var statementStartDepth = 0
        for c in source {
            if c == "{" {
                finish(String(line), depthAtStart: statementStartDepth, opensBody: true)
                line.removeAll()
                depth += 1
                stack.append((pending, depth))
                pending = nil
                statementStartDepth = depth
            } else if c == "}" {
                if !line.isEmpty { finish(String(line), depthAtStart: statementStartDepth); line.removeAll() }
                depth -= 1
                if !stack.isEmpty { stack.removeLast() }
                statementStartDepth = depth
            } else if c == "\n" || c == ";" {
                if !line.isEmpty { finish(String(line), depthAtStart: statementStartDepth) }
                line.removeAll()
                statementStartDepth = depth
            } else {
                line.append(c)
            }
        }
        return types
    }

    /// The names a `let`/`var` declares after its keyword, if stored: `a: Int, b = 1` → a, b;
    /// `x: Int` followed by a body `{` on the same line (cut off here) is computed unless the
    /// body is an observer, which the caller cannot see; a declaration ending in `{` with no
    /// `=` is taken as computed.
    static func storedNames(_ rest: String) -> [String] {
        var names: [String] = []
        var depth = 0, segment = ""
        var segments: [String] = []
        for c in rest {
            if "([<".contains(c) { depth += 1 }
            if ")]>".contains(c) { depth -= 1 }
            if c == "," && depth == 0 { segments.append(segment); segment = ""; continue }
            segment.append(c)
        }
        segments.append(segment)
        for part in segments {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let name = trimmed.split(whereSeparator: { ": =".contains($0) }).first else { continue }
            names.append(String(name))
        }
        return names
    }
}

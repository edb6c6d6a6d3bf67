/// The `Link` header of a paged response (RFC 8288), as Mastodon sends it:
/// `<https://host/api/v1/timelines/public?max_id=7>; rel="next", <…?min_id=9>; rel="prev"`.
public enum LinkHeader {
    /// Each link's target by relation type (lowercased); a link with several types
    /// (`rel="next last"`) is listed under each. The first link of a relation wins.
    /// Anything malformed is skipped, never an error: a page without a usable `next` is the
    /// last page.
    /// - Complexity: O(n) in the length of `value`.
    public static func links(in value: String) -> [String: String] {
        var result: [String: String] = [:]
        let scalars = Array(value.unicodeScalars)
        var index = 0
        while index < scalars.count {
            // Each link starts with `<`; what came before (junk, a separator) is skipped.
            guard let open = scalars[index...].firstIndex(of: "<") else { break }
            guard let close = scalars[(open + 1)...].firstIndex(of: ">") else { break }
            let target = String(String.UnicodeScalarView(scalars[(open + 1)..<close])).trimmingSpaces
            index = close + 1
            // Parameters up to the next link (a `,` outside quotes).
            var parameters: [(String, String)] = []
            while index < scalars.count {
                while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
                guard index < scalars.count else { break }
                if scalars[index] == "," {
                    index += 1
                    break
                }
                guard scalars[index] == ";" else {
                    // Junk between parameters: skip to the next separator.
                    index += 1
                    continue
                }
                index += 1
                let (parameter, end) = readParameter(scalars, from: index)
                index = end
                if let parameter { parameters.append(parameter) }
            }
            guard !target.isEmpty else { continue }
            for (name, value) in parameters where name == "rel" {
                for relation in value.split(separator: " ") where result[relation.lowercased()] == nil {
                    result[relation.lowercased()] = target
                }
            }
        }
        return result
    }

    /// The `next` link's target, if there is one.
    public static func next(in value: String?) -> String? {
        value.flatMap { links(in: $0)["next"] }
    }

    /// `name=value` or `name="quoted value"` starting at `start`, and where it ended (at
    /// the next `;` or `,`, unconsumed).
    private static func readParameter(_ scalars: [Unicode.Scalar], from start: Int) -> ((String, String)?, Int) {
        var index = start
        var name = String.UnicodeScalarView()
        while index < scalars.count, !"=;,".unicodeScalars.contains(scalars[index]) {
            name.append(scalars[index])
            index += 1
        }
        let key = String(name).trimmingSpaces.lowercased()
        guard index < scalars.count, scalars[index] == "=" else { return (key.isEmpty ? nil : (key, ""), index) }
        index += 1
        while index < scalars.count, scalars[index] == " " { index += 1 }
        var value = String.UnicodeScalarView()
        if index < scalars.count, scalars[index] == "\"" {
            index += 1
            while index < scalars.count, scalars[index] != "\"" {
                if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                value.append(scalars[index])
                index += 1
            }
            index = min(index + 1, scalars.count)
        } else {
            while index < scalars.count, scalars[index] != ";", scalars[index] != "," {
                value.append(scalars[index])
                index += 1
            }
        }
        return ((key, String(value).trimmingSpaces), index)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (no Foundation here).
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}

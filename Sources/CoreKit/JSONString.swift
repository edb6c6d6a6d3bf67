/// JSON string literals for the reports and traces the project writes by hand (no encoder:
/// they are flat, and written once at the end of a run).
public enum JSONString {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (file names come from the user's folders and may hold any of them).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

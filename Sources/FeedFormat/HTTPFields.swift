/// Header fields as a cache keeps them: names lowercased, in the order received, repeated
/// names kept (a cache must keep every line; `Cache-Control` may come on several).
public struct HTTPFields: Sendable, Equatable, Codable {
    /// (lowercased name, value) pairs, in order.
    public private(set) var fields: [Field]

    /// One header line.
    public struct Field: Sendable, Equatable, Codable {
        /// The name, lowercased.
        public var name: String
        /// The value as received.
        public var value: String
    }

    /// Fields from (name, value) pairs in any case.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0.lowercased(), value: $0.1) }
    }

    /// Every value of `name` (any case), in order.
    public func values(_ name: String) -> [String] {
        let name = name.lowercased()
        return fields.filter { $0.name == name }.map(\.value)
    }

    /// The first value of `name`, or nil.
    public subscript(_ name: String) -> String? { values(name).first }

    /// Replaces every line of `name` with one of `value` (nil removes them).
    public mutating func set(_ name: String, _ value: String?) {
        let name = name.lowercased()
        fields.removeAll { $0.name == name }
        if let value { fields.append(Field(name: name, value: value)) }
    }
}

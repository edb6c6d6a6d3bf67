import CoreKit

/// Grapheme clusters of more than one scalar, interned once so that a ``Cell`` can name
/// them with a 4-byte code. Terminal text is almost all single scalars (ASCII, box
/// drawing, block symbols, ♥); the table holds the rest (flags, emoji sequences,
/// combining marks) for the life of the process, a few entries in practice.
///
/// Thread-safe: canvases are drawn on any thread. Only multi-scalar clusters take the lock.
public enum GraphemeTable {
    /// Set in a cell's code when the rest is an index into the table.
    public static let internedBit: UInt32 = 0x8000_0000

    private struct Table: Sendable {
        var clusters: [Character] = []
        var ids: [Character: UInt32] = [:]
    }

    private static let table = Lock(Table())

    /// The code for `character`: its scalar value when it has one scalar, else its id.
    public static func code(for character: Character) -> UInt32 {
        let scalars = character.unicodeScalars
        if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex { return first.value }
        return table.withLock { table in
            if let id = table.ids[character] { return internedBit | id }
            let id = UInt32(table.clusters.count)
            precondition(id < internedBit, "GraphemeTable is full")
            table.clusters.append(character)
            table.ids[character] = id
            return internedBit | id
        }
    }

    /// The character a code stands for.
    public static func character(for code: UInt32) -> Character {
        if code & internedBit == 0 { return Unicode.Scalar(code).map(Character.init) ?? " " }
        let id = Int(code & ~internedBit)
        return table.withLock { $0.clusters.indices.contains(id) ? $0.clusters[id] : " " }
    }

    /// Clusters interned so far.
    public static var count: Int { table.withLock { $0.clusters.count } }
}

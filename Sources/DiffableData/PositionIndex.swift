/// Where each identifier of the old array sits: the one table the diff builds.
protocol PositionIndex {
    associatedtype Key
    /// Records `key` at `position`; returns the position it already had, if any.
    mutating func insert(_ key: Key, at position: Int) -> Int?
    func position(of key: Key) -> Int?
}

/// Any Hashable identifier: a dictionary.
struct HashedPositions<Key: Hashable>: PositionIndex {
    private var table: [Key: Int]

    init(capacity: Int) { table = Dictionary(minimumCapacity: capacity) }

    mutating func insert(_ key: Key, at position: Int) -> Int? { table.updateValue(position, forKey: key) }

    func position(of key: Key) -> Int? { table[key] }
}

/// Integer identifiers in a compact range (row ids, counters): a flat array indexed by
/// `key - lowest`. No hashing and sequential memory, so a million identifiers cost about
/// ten times a hundred thousand instead of the extra cache misses of a large hash table.
struct DensePositions: PositionIndex {
    private var slots: [Int32]
    private let lowest: Int

    /// Nil when the range is too sparse (more than 4 slots per key, plus slack) or too wide.
    init?(keys: ArraySlice<Int>) {
        guard let low = keys.min(), let high = keys.max() else { return nil }
        let (width, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, width < Int(Int32.max), width <= keys.count * 4 + 1024 else { return nil }
        lowest = low
        slots = [Int32](repeating: -1, count: width + 1)
    }

    mutating func insert(_ key: Int, at position: Int) -> Int? {
        let slot = key - lowest
        let previous = slots[slot]
        slots[slot] = Int32(position)
        return previous < 0 ? nil : Int(previous)
    }

    func position(of key: Int) -> Int? {
        let slot = key &- lowest
        guard slot >= 0, slot < slots.count else { return nil }
        let value = slots[slot]
        return value < 0 ? nil : Int(value)
    }
}

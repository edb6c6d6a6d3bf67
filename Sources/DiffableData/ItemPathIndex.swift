/// Where each item of a snapshot sits: identifier → ``ItemPath``, kept current by every
/// mutation so that lookups in both directions are O(1).
///
/// Two layouts behind one interface. Any `Hashable` identifier goes into a dictionary.
/// `Int` identifiers in a compact range (row ids, counters: what apps index by) go into a
/// flat array indexed by `identifier - lowest`, 8 bytes a slot: a million posts cost 8 MB
/// instead of the dictionary's ~50 MB (24-byte entries in 2^21 buckets), and filling it is a
/// store per item instead of a hash and a probe (issue 23: peak RSS and Esc at a million).
/// The array is chosen when an empty index is first filled; a key that would make it too
/// sparse (more than four slots a key, plus slack) moves everything into the dictionary.
/// Until a key breaks the run of identifiers in order, the array is not even written: the
/// paths are computed (``DenseSlots``, D-054).
struct ItemPathIndex<ItemID: Hashable & Sendable>: Sendable {
    private var hashed: [ItemID: PackedPath] = [:]
    private var dense: DenseSlots?

    /// - Complexity: O(1).
    var count: Int { dense?.count ?? hashed.count }

    /// Whether the flat array holds the paths (for tests and the benchmark).
    var isDense: Bool { dense != nil }

    /// Whether the paths are computed from a run of keys, with no array at all (for tests).
    var isComputed: Bool { dense?.isComputed ?? false }

    /// - Complexity: O(1).
    subscript(item: ItemID) -> ItemPath? {
        get {
            if let dense { return dense[Self.integer(item)]?.indexPath }
            return hashed[item]?.indexPath
        }
        set {
            if let newValue { _ = updateValue(newValue, forKey: item) } else { removeValue(forKey: item) }
        }
    }

    /// Records `path` for `item`; returns the path it had, if any.
    /// - Complexity: O(1) amortised; O(n) once when the layout changes.
    mutating func updateValue(_ path: ItemPath, forKey item: ItemID) -> ItemPath? {
        let packed = PackedPath(path)
        if dense != nil {
            let key = Self.integer(item)
            if dense!.canHold(key) { return dense!.updateValue(packed, forKey: key)?.indexPath }
            spill()
        }
        return hashed.updateValue(packed, forKey: item)?.indexPath
    }

    mutating func removeValue(forKey item: ItemID) {
        if dense != nil {
            dense!.removeValue(forKey: Self.integer(item))
        } else {
            hashed[item] = nil
        }
    }

    /// Makes room for `newItems` before they are recorded. An empty index of `Int`
    /// identifiers takes the flat layout here when their range is compact enough.
    /// - Complexity: O(k) for k new items.
    mutating func reserve(for newItems: [ItemID]) {
        if ItemID.self == Int.self, count == 0, !newItems.isEmpty {
            let keys = newItems.lazy.map(Self.integer)
            if let slots = DenseSlots(low: keys.min()!, high: keys.max()!, expectedCount: newItems.count) {
                dense = slots
                hashed = [:]
                return
            }
        }
        if dense == nil { hashed.reserveCapacity(hashed.count + newItems.count) }
    }

    /// Moves every path into the dictionary (a key fell outside what the array may grow to).
    private mutating func spill() {
        guard let slots = dense else { return }
        var table = [ItemID: PackedPath](minimumCapacity: slots.count + 1)
        slots.forEach { key, path in table[unsafeBitCast(key, to: ItemID.self)] = path }
        hashed = table
        dense = nil
    }

    /// The identifier as an `Int`; only called when `ItemID` is `Int` (the dense layout
    /// exists only then), so the cast is a no-op once specialised.
    @inline(__always)
    private static func integer(_ item: ItemID) -> Int { unsafeBitCast(item, to: Int.self) }
}

/// An ``ItemPath`` in 8 bytes. Section and item fit 32 bits each here: a snapshot of
/// more than two billion items would not fit in memory first. Negative values are
/// allowed (the snapshot's insert marks claimed items with section -1).
struct PackedPath: Sendable, Equatable {
    var section: Int32
    var item: Int32

    init(_ path: ItemPath) {
        section = Int32(path.section)
        item = Int32(path.item)
    }

    var indexPath: ItemPath { ItemPath(item: Int(item), section: Int(section)) }

    /// No path: a slot of the flat layout with no item.
    static let empty = PackedPath(section: .min, item: .min)
    init(section: Int32, item: Int32) {
        self.section = section
        self.item = item
    }
}

/// `Int` keys in `lowest ..< lowest + width`, each slot the key's path or `.empty`.
///
/// Until a key breaks the pattern, no array exists: while the keys so far are `lowest,
/// lowest + 1, …` at consecutive items of one section — a list of row ids in order, what
/// a grid of every post is — a path is computed, not stored (a million posts: 8 MB less per
/// snapshot, and two snapshots live while a query's result replaces the grid). The first
/// key or path out of that run writes the array once and carries on as before.
struct DenseSlots: Sendable {
    /// Empty while `run` stands for every key.
    private var slots: [PackedPath] = []
    private var lowest: Int
    /// Keys the range spans (`slots.count` once written).
    private var width: Int
    private(set) var count = 0
    /// The path of key `lowest` while the keys are a run (`count` of them, each one item on).
    private var run: PackedPath?
    private var isRun = true

    /// Nil when the range is wider than four slots a key plus slack, or overflows.
    init?(low: Int, high: Int, expectedCount: Int) {
        let (width, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, Self.allows(width: width + 1, count: expectedCount) else { return nil }
        lowest = low
        self.width = width + 1
    }

    private static func allows(width: Int, count: Int) -> Bool {
        width >= 0 && width <= Int(Int32.max) && width <= count * 4 + 1024
    }

    /// Whether the paths are computed rather than stored (for tests).
    var isComputed: Bool { isRun }

    subscript(key: Int) -> PackedPath? {
        let slot = key &- lowest
        if isRun {
            guard let run, slot >= 0, slot < count else { return nil }
            return PackedPath(section: run.section, item: run.item &+ Int32(truncatingIfNeeded: slot))
        }
        guard slot >= 0, slot < slots.count else { return nil }
        let path = slots[slot]
        return path == .empty ? nil : path
    }

    /// Whether `key` fits, growing the range when that keeps it compact.
    mutating func canHold(_ key: Int) -> Bool {
        let slot = key &- lowest
        if slot >= 0, slot < width { return true }
        let low = Swift.min(lowest, key), high = Swift.max(lowest + width - 1, key)
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, Self.allows(width: span + 1, count: count + 1) else { return false }
        if key < lowest {
            writeSlots()
            slots.insert(contentsOf: repeatElement(.empty, count: lowest - key), at: 0)
            lowest = key
        } else {
            // Grow by half again at least, so appending ascending keys one at a time is
            // amortised O(1).
            let wanted = Swift.max(slot + 1, width + width / 2)
            let capped = Swift.max(slot + 1, Swift.min(wanted, (count + 1) * 4 + 1024))
            if !isRun { slots.append(contentsOf: repeatElement(.empty, count: capped - slots.count)) }
            width = capped
        }
        width = isRun ? width : slots.count
        return true
    }

    /// Requires ``canHold(_:)`` to have answered true for `key`.
    mutating func updateValue(_ path: PackedPath, forKey key: Int) -> PackedPath? {
        let slot = key - lowest
        if isRun {
            if slot == count, path.section != PackedPath.empty.section,
               count == 0 || (run!.section == path.section && run!.item &+ Int32(truncatingIfNeeded: count) == path.item) {
                if count == 0 { run = path }
                count += 1
                return nil
            }
            writeSlots()
        }
        let previous = slots[slot]
        slots[slot] = path
        if previous == .empty {
            count += 1
            return nil
        }
        return previous
    }

    mutating func removeValue(forKey key: Int) {
        let slot = key &- lowest
        if isRun {
            guard slot >= 0, slot < count else { return }
            if slot == count - 1 {
                count -= 1
                return
            }
            writeSlots()
        }
        guard slot >= 0, slot < slots.count, slots[slot] != .empty else { return }
        slots[slot] = .empty
        count -= 1
    }

    func forEach(_ body: (Int, PackedPath) -> Void) {
        if isRun {
            for slot in 0..<count { body(lowest + slot, self[lowest + slot]!) }
            return
        }
        for (slot, path) in slots.enumerated() where path != .empty { body(lowest + slot, path) }
    }

    /// Stores the run's paths in the array: a key or path out of the run came.
    private mutating func writeSlots() {
        guard isRun else { return }
        var stored = [PackedPath](repeating: .empty, count: width)
        if let run {
            for slot in 0..<count { stored[slot] = PackedPath(section: run.section, item: run.item &+ Int32(slot)) }
        }
        slots = stored
        isRun = false
        run = nil
    }
}

/// The difference between two arrays of unique identifiers, with the fewest moves.
///
/// Index semantics are those of a batch update: ``deletes`` and move sources are indices
/// into `old`, ``inserts`` and move destinations indices into `new`. Applying means:
/// remove deletes and move sources (highest first), then insert inserts and move
/// destinations (lowest first); ``apply(to:)`` does exactly that.
public struct ArrayDiff<Element: Hashable & Sendable>: Sendable {
    /// An element that stays but changes place.
    public struct Move: Hashable, Sendable {
        /// Its index in `old`.
        public let from: Int
        /// Its index in `new`.
        public let to: Int
    }

    /// The array before.
    public let old: [Element]
    /// The array after.
    public let new: [Element]
    /// Old indices of removed elements, ascending.
    public private(set) var deletes: [Int] = []
    /// New indices of added elements, ascending.
    public private(set) var inserts: [Int] = []
    /// Elements outside a longest increasing subsequence of the kept ones, by destination.
    public private(set) var moves: [Move] = []

    /// True when the arrays were equal.
    /// - Complexity: O(1).
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && moves.isEmpty }

    /// Diffs `old` into `new`. Identical arrays return at once; a common prefix and suffix
    /// are never hashed.
    /// - Complexity: O(n) hashing plus O(m log m) for the subsequence over the m kept
    ///   elements that are not in the common prefix or suffix.
    /// - Precondition: no identifier appears twice in `old` or twice in `new`.
    public init(from old: [Element], to new: [Element]) {
        self.old = old
        self.new = new
        if old == new { return }
        var prefix = 0
        let shorter = min(old.count, new.count)
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldRange = prefix..<(old.count - suffix)
        let newRange = prefix..<(new.count - suffix)

        if Element.self == Int.self, let dense = DensePositions(keys: unsafeBitCast(old, to: [Int].self)[oldRange]) {
            matchKept(old: unsafeBitCast(old, to: [Int].self), new: unsafeBitCast(new, to: [Int].self),
                      oldRange: oldRange, newRange: newRange, index: dense)
        } else {
            matchKept(old: old, new: new, oldRange: oldRange, newRange: newRange, index: HashedPositions<Element>(capacity: oldRange.count))
        }
    }

    /// The core: index the old middle, look every new element up once, then keep a longest
    /// increasing subsequence of the kept elements' old positions in place.
    private mutating func matchKept<Key, Index: PositionIndex>(
        old: [Key], new: [Key], oldRange: Range<Int>, newRange: Range<Int>, index: Index
    ) where Index.Key == Key {
        var index = index
        for i in oldRange {
            if let earlier = index.insert(old[i], at: i) {
                preconditionFailure("ArrayDiff: identifier \(old[i]) appears twice in the old array (indices \(earlier) and \(i))")
            }
        }
        let prefix = oldRange.lowerBound
        var kept = [Bool](repeating: false, count: oldRange.count)
        var sources: [Int] = []
        var destinations: [Int] = []
        sources.reserveCapacity(min(oldRange.count, newRange.count))
        destinations.reserveCapacity(sources.capacity)
        for j in newRange {
            guard let i = index.position(of: new[j]) else {
                inserts.append(j)
                continue
            }
            precondition(!kept[i - prefix], "ArrayDiff: identifier \(new[j]) appears twice in the new array")
            kept[i - prefix] = true
            sources.append(i)
            destinations.append(j)
        }
        for (offset, isKept) in kept.enumerated() where !isKept { deletes.append(prefix + offset) }
        let stays = LongestIncreasingSubsequence.membership(of: sources)
        for k in sources.indices where !stays[k] { moves.append(Move(from: sources[k], to: destinations[k])) }
    }

    /// Replays the diff on `old` in batch-update order; gives `new` back.
    /// - Complexity: O(n + d log d) for d deletes, inserts and moves.
    public func apply(to old: [Element]) -> [Element] {
        var removed = [Bool](repeating: false, count: old.count)
        for index in deletes { removed[index] = true }
        for move in moves { removed[move.from] = true }
        var additions: [(at: Int, element: Element)] = inserts.map { ($0, new[$0]) }
        additions += moves.map { ($0.to, old[$0.from]) }
        additions.sort { $0.at < $1.at }
        return mergeAdditions(additions, into: old.indices.lazy.filter { !removed[$0] }.map { old[$0] })
    }
}

/// Fills positions `0..<(kept + additions)`: each addition at its index, the kept
/// elements in order in the gaps. Inserting in ascending order one by one gives the same
/// result in O(n²); this is the O(n) form.
func mergeAdditions<Element>(_ additions: [(at: Int, element: Element)], into kept: some Sequence<Element>) -> [Element] {
    var result: [Element] = []
    var keptIterator = kept.makeIterator()
    var next = 0
    while true {
        if next < additions.count, additions[next].at == result.count {
            result.append(additions[next].element)
            next += 1
        } else if let element = keptIterator.next() {
            result.append(element)
        } else if next < additions.count {
            preconditionFailure("apply: insertion at \(additions[next].at) is past the end (\(result.count) elements)")
        } else {
            return result
        }
    }
}

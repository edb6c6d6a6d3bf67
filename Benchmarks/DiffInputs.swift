import CoreKit
import TestSupport

/// The exact inputs of `shared/bench/DIFF_INPUTS.md`, rebuilt from its recipe and checked
/// against its FNV-1a checksums before anything is timed.
struct DiffCase {
    let name: String
    let source: [Int]
    let target: [Int]
    let expectedChecksum: UInt64
    /// The minimal number of moves the shared file lists.
    let documentedMinimalMoves: Int

    static let names = ["i", "ii", "iii", "iv", "v", "ii-s", "iii-s"]

    static func make(_ name: String) -> DiffCase {
        switch name {
        case "i": block(name, n: 5_000, delete: 2000..<3000, insertAt: 3000, inserted: 1_000, shuffle: 0..<200, seed: 0xD1FF0001, checksum: 0x6f4e52ec49b61e15, moves: 177)
        case "ii": block(name, n: 100_000, delete: 20000..<30000, insertAt: 30000, inserted: 10_000, shuffle: 0..<2000, seed: 0xD1FF0002, checksum: 0xe56be56fa7af4399, moves: 1_921)
        case "iii": block(name, n: 1_000_000, delete: 200000..<300000, insertAt: 300000, inserted: 100_000, shuffle: 0..<20000, seed: 0xD1FF0003, checksum: 0x852f4e9dd2b109d5, moves: 19_726)
        case "iv": DiffCase(name: name, source: Array(0..<100_000), target: Array(0..<100_000), expectedChecksum: 0x6985869f5c4f98a5, documentedMinimalMoves: 0)
        case "v": DiffCase(name: name, source: Array(0..<100_000), target: Array((0..<100_000).reversed()), expectedChecksum: 0x6b079e3bfead0065, documentedMinimalMoves: 99_999)
        case "ii-s": scattered(name, n: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000, seed: 0xD1FF1002, checksum: 0xdc5a806573b27d12, moves: 1_797)
        case "iii-s": scattered(name, n: 1_000_000, deleted: 100_000, inserted: 100_000, shuffled: 20_000, seed: 0xD1FF1003, checksum: 0x59645276ec7148b5, moves: 18_042)
        default: fatalError("unknown case \(name); known: \(names.joined(separator: ", "))")
        }
    }

    var checksumMatches: Bool { Self.fnv1a(target) == expectedChecksum }

    static func fnv1a(_ values: [Int]) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for value in values {
            var bits = UInt64(bitPattern: Int64(value))
            for _ in 0..<8 {
                hash = (hash ^ (bits & 0xff)) &* 0x100000001b3
                bits >>= 8
            }
        }
        return hash
    }

    static func shuffle(_ a: inout [Int], _ range: Range<Int>, _ rng: inout SplitMix64) {
        var i = range.upperBound - 1
        while i > range.lowerBound {
            let j = range.lowerBound + rng.below(i - range.lowerBound + 1)
            a.swapAt(i, j)
            i -= 1
        }
    }

    static func block(_ name: String, n: Int, delete: Range<Int>, insertAt: Int, inserted: Int, shuffle range: Range<Int>,
                      seed: UInt64, checksum: UInt64, moves: Int) -> DiffCase {
        let source = Array(0..<n)
        var target = source
        target.removeSubrange(delete)
        target.insert(contentsOf: n..<(n + inserted), at: insertAt)
        var rng = SplitMix64(seed: seed)
        shuffle(&target, range, &rng)
        return DiffCase(name: name, source: source, target: target, expectedChecksum: checksum, documentedMinimalMoves: moves)
    }

    /// The scattered recipe. Step 2 inserts at random positions one after another; doing
    /// that literally is quadratic, so each inserted value's final slot is found backwards
    /// with a Fenwick tree over free slots (same result, O(n log n)).
    static func scattered(_ name: String, n: Int, deleted: Int, inserted: Int, shuffled: Int,
                          seed: UInt64, checksum: UInt64, moves: Int) -> DiffCase {
        var rng = SplitMix64(seed: seed)
        var idx = Array(0..<n)
        for t in 0..<deleted { idx.swapAt(t, t + rng.below(n - t)) }
        var doomed = [Bool](repeating: false, count: n)
        for t in 0..<deleted { doomed[idx[t]] = true }
        let survivors = (0..<n).filter { !doomed[$0] }

        var positions = [Int](repeating: 0, count: inserted)
        for t in 0..<inserted { positions[t] = rng.below(survivors.count + t + 1) }
        let total = survivors.count + inserted
        var free = FreeSlots(count: total)
        var target = [Int](repeating: -1, count: total)
        for t in stride(from: inserted - 1, through: 0, by: -1) {
            let slot = free.takeNth(positions[t])
            target[slot] = n + t
        }
        var next = 0
        for slot in 0..<total where target[slot] < 0 {
            target[slot] = survivors[next]
            next += 1
        }

        var pidx = Array(0..<total)
        for u in 0..<shuffled { pidx.swapAt(u, u + rng.below(total - u)) }
        var g = (0..<shuffled).map { target[pidx[$0]] }
        shuffle(&g, 0..<shuffled, &rng)
        for u in 0..<shuffled { target[pidx[u]] = g[u] }
        return DiffCase(name: name, source: Array(0..<n), target: target, expectedChecksum: checksum, documentedMinimalMoves: moves)
    }
}

/// Free slots 0..<count; `takeNth(k)` claims the k-th free one (0-based) in O(log n).
struct FreeSlots {
    private var tree: [Int]
    private let size: Int

    init(count: Int) {
        size = count
        tree = [Int](repeating: 0, count: count + 1)
        for i in 1...count {
            tree[i] += 1
            let parent = i + (i & -i)
            if parent <= count { tree[parent] += tree[i] }
        }
    }

    mutating func takeNth(_ k: Int) -> Int {
        var position = 0
        var remaining = k + 1
        var step = 1
        while step * 2 <= size { step *= 2 }
        while step > 0 {
            if position + step <= size && tree[position + step] < remaining {
                position += step
                remaining -= tree[position]
            }
            step /= 2
        }
        var i = position + 1
        while i <= size {
            tree[i] -= 1
            i += i & -i
        }
        return position
    }
}

/// Which values belong to one longest strictly increasing subsequence.
///
/// The diff keeps the items of such a subsequence in place and moves only the others, so
/// the number of moves is the smallest possible: n − LIS.
enum LongestIncreasingSubsequence {
    /// A mask over `values`: true for the members of one longest increasing subsequence.
    /// - Complexity: O(n log n) time (patience sorting), O(n) memory.
    static func membership(of values: [Int]) -> [Bool] {
        let count = values.count
        var mask = [Bool](repeating: false, count: count)
        guard count > 0 else { return mask }
        var tails: [Int] = []  // tails[l]: index of the smallest tail of an increasing run of length l+1
        var previous = [Int](repeating: -1, count: count)
        values.withUnsafeBufferPointer { v in
            for k in 0..<count {
                let value = v[k]
                if let last = tails.last, v[last] < value {
                    previous[k] = last
                    tails.append(k)
                    continue
                }
                var low = 0
                var high = tails.count
                while low < high {
                    let mid = (low + high) >> 1
                    if v[tails[mid]] < value { low = mid + 1 } else { high = mid }
                }
                if low > 0 { previous[k] = tails[low - 1] }
                if low == tails.count { tails.append(k) } else { tails[low] = k }
            }
        }
        var k = tails.last!
        while k >= 0 {
            mask[k] = true
            k = previous[k]
        }
        return mask
    }

    /// The length of a longest increasing subsequence.
    /// - Complexity: O(n log n).
    static func length(of values: [Int]) -> Int {
        membership(of: values).reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}

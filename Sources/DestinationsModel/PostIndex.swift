/// A catalogue made searchable, built once off the main thread: every entry's title and
/// region lowercased in two contiguous byte buffers with offsets, and each entry's rank by
/// title and by region. A query then costs one byte search per catalogue *entry* plus one
/// pass over the matching posts, however many posts repeat each entry; no strings are
/// made per post. Immutable, so any thread may read it.
public final class PostIndex: Sendable {
    public let postCount: Int
    let catalogue: Catalogue
    public let entryCount: Int
    /// The catalogue's ``Catalogue/textRevision`` it was built from (a post revealed since
    /// changes what a filter may find).
    public let textRevision: Int
    let titles: [UInt8], titleStarts: [Int]
    let regions: [UInt8], regionStarts: [Int]
    let titleRank: [Int], regionRank: [Int]

    /// - Complexity: O(entries · log entries + total text), independent of `postCount`.
    public init(catalogue: Catalogue, postCount: Int) {
        self.catalogue = catalogue
        self.postCount = postCount
        entryCount = catalogue.baseCount
        textRevision = catalogue.textRevision
        let texts = (0..<entryCount).map { catalogue.entryText($0) }
        func pack(_ strings: [String]) -> ([UInt8], [Int]) {
            var bytes: [UInt8] = [], starts = [0]
            for string in strings {
                bytes += string.lowercased().utf8
                starts.append(bytes.count)
            }
            return (bytes, starts)
        }
        (titles, titleStarts) = pack(texts.map(\.title))
        (regions, regionStarts) = pack(texts.map(\.region))
        func ranks(_ key: (Int) -> String) -> [Int] {
            let order = (0..<texts.count).sorted { (key($0), $0) < (key($1), $1) }
            var rank = [Int](repeating: 0, count: texts.count)
            for (position, entry) in order.enumerated() { rank[entry] = position }
            return rank
        }
        titleRank = ranks { texts[$0].title }
        regionRank = ranks { texts[$0].region }
    }

    /// The ids (1-based) of the posts `query` shows, in its order; nil as soon as
    /// `isCancelled` says so (checked every 64 Ki posts). With the result of a query it
    /// narrows (see ``PostQuery``), only those posts are scanned.
    public func ids(for query: PostQuery, narrowing previous: (query: PostQuery, ids: [Int])? = nil,
                    isCancelled: () -> Bool = { false }) -> [Int]? {
        let needle = query.needle
        let matches = (0..<entryCount).map { needle.isEmpty || contains(needle, entry: $0) }
        if let previous, query.narrows(previous.query) {
            return filter(previous.ids, matches: matches, isCancelled: isCancelled)
        }
        switch query.order {
        case .catalogue: return idsInCatalogueOrder(matches: matches, isCancelled: isCancelled)
        case .title: return idsByEntryRank(titleRank, matches: matches, isCancelled: isCancelled)
        case .region: return idsByEntryRank(regionRank, matches: matches, isCancelled: isCancelled)
        case .likes:
            guard let ids = idsInCatalogueOrder(matches: matches, isCancelled: isCancelled) else { return nil }
            var keyed = ids.map { (likes: catalogue.likes(ofPost: $0 - 1) + query.addedLikes[$0, default: 0], id: $0) }
            guard !isCancelled() else { return nil }
            keyed.sort { ($0.likes, $1.id) > ($1.likes, $0.id) }
            return keyed.map(\.id)
        }
    }

    private static let checkEvery = 1 << 16

    /// How many of the first `postCount` posts have a matching entry (post `i` is entry
    /// `i % entryCount`): each result is built at its exact size, since the snapshot keeps
    /// the array as it is (D-046) and growth by doubling left up to half of it empty.
    private func matchingPostCount(_ matches: [Bool]) -> Int {
        var count = 0
        for entry in 0..<Swift.min(entryCount, postCount) where matches[entry] { count += (postCount - 1 - entry) / entryCount + 1 }
        return count
    }

    private func filter(_ ids: [Int], matches: [Bool], isCancelled: () -> Bool) -> [Int]? {
        var result: [Int] = []
        result.reserveCapacity(ids.reduce(0) { $0 + (matches[($1 - 1) % entryCount] ? 1 : 0) })
        for (position, id) in ids.enumerated() {
            if position % Self.checkEvery == 0, isCancelled() { return nil }
            if matches[(id - 1) % entryCount] { result.append(id) }
        }
        return result
    }

    private func idsInCatalogueOrder(matches: [Bool], isCancelled: () -> Bool) -> [Int]? {
        guard postCount > 0 else { return [] }
        if !matches.contains(false) { return Array(1...postCount) }
        var result: [Int] = []
        result.reserveCapacity(matchingPostCount(matches))
        var entry = 0
        for index in 0..<postCount {
            if index % Self.checkEvery == 0, isCancelled() { return nil }
            if matches[entry] { result.append(index + 1) }
            entry += 1
            if entry == entryCount { entry = 0 }
        }
        return result
    }

    /// Posts grouped by entry in rank order, each entry's posts by id: the (rank, id) order
    /// without a sort of the posts. O(posts).
    private func idsByEntryRank(_ rank: [Int], matches: [Bool], isCancelled: () -> Bool) -> [Int]? {
        var byRank = [Int](repeating: 0, count: entryCount)
        for entry in 0..<entryCount { byRank[rank[entry]] = entry }
        var result: [Int] = []
        result.reserveCapacity(matchingPostCount(matches))
        for entry in byRank where matches[entry] {
            if isCancelled() { return nil }
            result.append(contentsOf: stride(from: entry + 1, through: postCount, by: entryCount))
        }
        return result
    }

    /// Whether entry `entry`'s lowercased title or region contains `needle` (bytes of
    /// UTF-8: a match of valid UTF-8 always starts and ends on character boundaries).
    func contains(_ needle: [UInt8], entry: Int) -> Bool {
        Self.find(needle, in: titles, titleStarts[entry]..<titleStarts[entry + 1])
            || Self.find(needle, in: regions, regionStarts[entry]..<regionStarts[entry + 1])
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard needle.count <= range.count else { return false }
        let first = needle[0]
        var start = range.lowerBound
        let lastStart = range.upperBound - needle.count
        while start <= lastStart {
            if bytes[start] == first {
                var k = 1
                while k < needle.count && bytes[start + k] == needle[k] { k += 1 }
                if k == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}

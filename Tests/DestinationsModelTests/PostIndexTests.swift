import DestinationsModel
import Foundation
import Testing

/// Queries over the bundled catalogue scaled up, checked against the obvious
/// (string-by-string) answer.
@Suite struct PostIndexTests {
    let catalogue: Catalogue
    init() throws { catalogue = try Catalogue(folder: assets) }

    /// The obvious answer: every post made, compared as strings, sorted by keys.
    func expected(_ query: PostQuery, posts: Int) -> [Int] {
        let needle = query.filter.lowercased()
        func entry(_ id: Int) -> (title: String, region: String) { catalogue.entryText(catalogue.entryIndex(ofPost: id - 1)) }
        var ids = (1...posts).filter { id in
            needle.isEmpty || entry(id).title.lowercased().contains(needle) || entry(id).region.lowercased().contains(needle)
        }
        func rank(_ key: (Int) -> String) -> [Int] {
            let order = (0..<catalogue.baseCount).sorted { (key($0), $0) < (key($1), $1) }
            var rank = [Int](repeating: 0, count: order.count)
            for (position, index) in order.enumerated() { rank[index] = position }
            return rank
        }
        switch query.order {
        case .catalogue: break
        case .title:
            let r = rank { catalogue.entryText($0).title }
            ids.sort { (r[($0 - 1) % catalogue.baseCount], $0) < (r[($1 - 1) % catalogue.baseCount], $1) }
        case .region:
            let r = rank { catalogue.entryText($0).region }
            ids.sort { (r[($0 - 1) % catalogue.baseCount], $0) < (r[($1 - 1) % catalogue.baseCount], $1) }
        case .likes:
            func likes(_ id: Int) -> Int { catalogue.post(id - 1).numberOfLikes + query.addedLikes[id, default: 0] }
            ids.sort { (likes($0), $1) > (likes($1), $0) }
        }
        return ids
    }

    @Test(arguments: PostOrder.allCases)
    func everyOrderAndFilterMatchesTheObviousAnswer(order: PostOrder) {
        let index = PostIndex(catalogue: catalogue, postCount: 500)
        for filter in ["", "a", "LAKE", "peru", "zzz", "e b"] {
            let query = PostQuery(filter: filter, order: order, addedLikes: [3: 100_000, 40: 7])
            #expect(index.ids(for: query) == expected(query, posts: 500), "filter '\(filter)', order \(order)")
        }
    }

    @Test func aNarrowingQueryScansOnlyThePreviousMatchesAndAgrees() {
        let index = PostIndex(catalogue: catalogue, postCount: 2000)
        for order in PostOrder.allCases {
            let broad = PostQuery(filter: "a", order: order)
            let previous = index.ids(for: broad)!
            let narrow = PostQuery(filter: "an", order: order)
            // The previous result, altered: a narrowing query must start from it.
            let withoutFirst = Array(previous.dropFirst())
            let narrowed = index.ids(for: narrow, narrowing: (broad, withoutFirst))!
            #expect(narrowed == expected(narrow, posts: 2000).filter { $0 != previous.first })
            // Not a narrowing (the filter does not contain the old one): a full scan.
            let other = PostQuery(filter: "b", order: order)
            #expect(index.ids(for: other, narrowing: (broad, withoutFirst)) == expected(other, posts: 2000))
        }
    }

    @Test func aCancelledQueryStopsWithNil() {
        let index = PostIndex(catalogue: catalogue, postCount: 300_000)
        var checks = 0
        let result = index.ids(for: PostQuery(filter: "lake")) {
            checks += 1
            return checks > 1
        }
        #expect(result == nil)
        #expect(checks == 2)
    }

    @Test func theEngineRemembersTheLastResult() {
        let engine = PostQueryEngine()
        let first = engine.run(PostQuery(filter: "la"), over: catalogue, postCount: 1000)!
        let second = engine.run(PostQuery(filter: "lak"), over: catalogue, postCount: 1000)!
        #expect(second == expected(PostQuery(filter: "lak"), posts: 1000))
        #expect(Set(second).isSubset(of: Set(first)))
        #expect(engine.run(PostQuery(filter: "x"), over: catalogue, postCount: 1000, isCancelled: { true }) == nil)
        // A cancelled query leaves the last finished one in place.
        #expect(engine.run(PostQuery(filter: "lake"), over: catalogue, postCount: 1000)! == expected(PostQuery(filter: "lake"), posts: 1000))
        // More posts: a new index, no narrowing from the old result.
        #expect(engine.run(PostQuery(filter: "lake"), over: catalogue, postCount: 2000)! == expected(PostQuery(filter: "lake"), posts: 2000))
    }
}

/// How the posts are ordered.
public enum PostOrder: String, CaseIterable, Sendable {
    case catalogue, title, region, likes

    /// The order after this one (the `s` key cycles through them).
    public var next: PostOrder { Self.allCases[(Self.allCases.firstIndex(of: self)! + 1) % Self.allCases.count] }
}

/// Which posts to show and in which order: a value handed to the background query.
public struct PostQuery: Sendable, Equatable {
    /// Shown when the title or region contains it, ignoring case ("" shows all).
    public var filter: String
    public var order: PostOrder
    /// Likes added in this session by post id; they count only in ``PostOrder/likes``.
    public var addedLikes: [Int: Int]

    public init(filter: String = "", order: PostOrder = .catalogue, addedLikes: [Int: Int] = [:]) {
        self.filter = filter
        self.order = order
        self.addedLikes = order == .likes ? addedLikes : [:]
    }

    /// No filter, the catalogue's order: every post as it is, which needs no catalogue
    /// to compute (``PostQueryEngine/everyPost(postCount:)``).
    public var isEveryPostInOrder: Bool { filter.isEmpty && order == .catalogue }

    /// The filter as the index compares it: lowercased UTF-8.
    var needle: [UInt8] { Array(filter.lowercased().utf8) }

    /// Whether this query's posts are a subset of `previous`'s, in the same order: the
    /// same order and likes, and a filter that contains the previous one.
    func narrows(_ previous: PostQuery) -> Bool {
        order == previous.order && addedLikes == previous.addedLikes && filter.lowercased().contains(previous.filter.lowercased())
    }
}

/// What ``GridModel/update(_:in:)`` may read of the grid, and nothing more: how the posts
/// shown are laid out and in which order. The view answers it from its data source; tests
/// from an array.
protocol GridContents {
    /// Items per row (Down moves the selection by a row).
    var columns: Int { get }
    /// Posts shown.
    var count: Int { get }
    /// Where post `id` is in the order shown, if it is shown.
    func index(of id: Int) -> Int?
    /// The post at `index` of the order shown.
    func identifier(at index: Int) -> Int?
    /// Whether the catalogue says the person liked post `id` (a feed's `favourited` when
    /// its page was fetched; false for the bundled posts): what `L` toggles from when the
    /// person has not said otherwise.
    func isFavourited(_ id: Int) -> Bool
    /// Whether post `id` carries a content warning (or is sensitive, or a filter warns of it).
    func hasWarning(_ id: Int) -> Bool
    /// How many pictures post `id` has (at least 1).
    func pictureCount(_ id: Int) -> Int
}

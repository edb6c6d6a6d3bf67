import DestinationsModel
import TerminalFront

/// What `handle` may read of the grid, and nothing more: how the posts shown are laid out
/// and in which order. The screen answers it from its data source; tests from an array.
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
}

/// What the person has chosen, and nothing else: the selected post, the filter and the
/// order, likes, which overlay is open, the HUD. The **one owner** of the selection and of
/// the post open large: the screen reads them and never writes them. A value with a pure
/// ``handle(_:in:)``: a key changes the state (reading the grid's order through a read-only
/// ``GridContents``) and returns what the screen must do about it, so every key's meaning
/// is tested without a terminal, a view or a clock (`GridStateTests`).
struct GridState: Equatable {
    /// The selected post's id (1-based, as the data source's items).
    private(set) var selected = 1
    var quit = false
    /// The person's word on posts, over the catalogue's (``GridContents/isFavourited(_:)``):
    /// liked or not, by post id — from this session's `L`, the saved likes and the outbox.
    private(set) var liked: [Int: Bool] = [:]
    /// What ``liked`` adds to each post's count: +1, −1 (a like the catalogue counted was
    /// taken back) or nothing (the catalogue is read-only).
    private(set) var addedLikes: [Int: Int] = [:]
    var sortOrder = PostOrder.catalogue
    /// The filter in force; while ``isEditingFilter``, each keystroke changes it.
    var filter = ""
    var isEditingFilter = false
    var showsHUD: Bool
    var showsHelp = false
    /// The post shown large over the grid.
    private(set) var detailID: Int?
    var imageMode: ImageMode

    /// The data a query must produce: which posts, in which order.
    var query: PostQuery { PostQuery(filter: filter, order: sortOrder, addedLikes: addedLikes) }

    init(showsHUD: Bool, imageMode: ImageMode) {
        self.showsHUD = showsHUD
        self.imageMode = imageMode
    }

    func likesAdded(to id: Int) -> Int { addedLikes[id, default: 0] }

    /// Whether the person likes post `id` now.
    func isLiked(_ id: Int, in contents: some GridContents) -> Bool { liked[id] ?? contents.isFavourited(id) }

    /// Sets the person's word on post `id` (a saved like, a rollback); `favourited`: what the
    /// catalogue says.
    mutating func setLiked(_ value: Bool, id: Int, favourited: Bool) {
        liked[id] = value
        let added = (value ? 1 : 0) - (favourited ? 1 : 0)
        addedLikes[id] = added == 0 ? nil : added
    }

    /// Applies `key` and returns what the screen must do; `contents` is the grid as shown.
    mutating func handle(_ key: Key, in contents: some GridContents) -> [GridEffect] {
        if case .resize = key { return [.relayout] }
        if showsHelp {
            showsHelp = false
            return []
        }
        if isEditingFilter { return handleFilter(key) }
        if let open = detailID { return handleDetail(key, open: open, in: contents) }
        switch key {
        case .character("q"): quit = true
        case .escape where !filter.isEmpty:
            filter = ""
            return [.requery]
        case .escape: quit = true
        case .character("?"): showsHelp = true
        case .enter:
            guard contents.index(of: selected) != nil else { return [] }
            detailID = selected
            return [.openDetail(selected)]
        case .character("j"), .down: return moveSelection(by: contents.columns, in: contents)
        case .character("k"), .up: return moveSelection(by: -contents.columns, in: contents)
        case .character("l"), .right: return moveSelection(by: 1, in: contents)
        case .character("h"), .left: return moveSelection(by: -1, in: contents)
        case .character("J"): return [.fling(1)]
        case .character("K"): return [.fling(-1)]
        case .control(0x05): return [.scroll(rows: 1)]  // Ctrl-E
        case .control(0x19): return [.scroll(rows: -1)]  // Ctrl-Y
        case .wheel(let notches): return [.wheel(rows: notches * 3)]
        case .character("L"), .character("+"):
            guard contents.index(of: selected) != nil else { return [] }
            return like(selected, in: contents)
        case .character("s"):
            sortOrder = sortOrder.next
            return [.requery]
        case .character("/"): isEditingFilter = true
        case .character("H"):
            showsHUD.toggle()
            return [.relayout]
        case .character("p"): return [.toggleIdleWork]
        case .character("i"): imageMode = imageMode.next
        case .character("r"): return [.toggleRefreshRate]
        case .pageDown, .character(" "): return [.page(1)]
        case .pageUp: return [.page(-1)]
        case .character("g"), .home: return [.scrollToTop]
        case .character("G"), .end: return [.scrollToBottom]
        case .control(0x0C): return [.repaint]  // Ctrl-L
        default: break
        }
        return []
    }

    /// Typing after `/`: every keystroke filters; Enter keeps the filter, Esc clears it.
    private mutating func handleFilter(_ key: Key) -> [GridEffect] {
        switch key {
        case .enter:
            isEditingFilter = false
            return []
        case .escape:
            isEditingFilter = false
            guard !filter.isEmpty else { return [] }
            filter = ""
        case .backspace:
            guard !filter.isEmpty else { return [] }
            filter.removeLast()
        case .character(let character): filter.append(character)
        default: return []
        }
        return [.requery]
    }

    private mutating func handleDetail(_ key: Key, open: Int, in contents: some GridContents) -> [GridEffect] {
        switch key {
        case .character("q"):
            quit = true
            return []
        case .escape, .enter, .backspace:
            detailID = nil
            return [.closeDetail]
        case .character("L"), .character("+"): return like(open, in: contents)
        case .character("?"):
            showsHelp = true
            return []
        default: return []
        }
    }

    /// Moves the selection by `delta` places in the order shown (±1 across, ±a row down),
    /// stopping at either end.
    private mutating func moveSelection(by delta: Int, in contents: some GridContents) -> [GridEffect] {
        guard let index = contents.index(of: selected) else { return keepSelectionShown(in: contents) }
        let target = min(max(index + delta, 0), contents.count - 1)
        guard target != index, let next = contents.identifier(at: target) else { return [] }
        let old = selected
        selected = next
        return [.selectionMoved(from: old, to: next)]
    }

    /// After the posts shown changed (a filter, an order, more posts read): a selection
    /// the order no longer shows moves to the first post shown.
    mutating func keepSelectionShown(in contents: some GridContents) -> [GridEffect] {
        guard contents.index(of: selected) == nil, let first = contents.identifier(at: 0) else { return [] }
        selected = first
        return [.reconfigure([first])]
    }

    /// Selects `id` (a scenario, a test): nothing to do when it is not shown.
    mutating func select(_ id: Int, in contents: some GridContents) -> [GridEffect] {
        guard id != selected, contents.index(of: id) != nil else { return [] }
        let old = selected
        selected = id
        return [.selectionMoved(from: old, to: id)]
    }

    /// `L`: likes the post, or takes the like back — as Mastodon's favourite is, one per
    /// person. Shown at once (optimistic); the screen keeps it and sends it.
    private mutating func like(_ id: Int, in contents: some GridContents) -> [GridEffect] {
        let now = !isLiked(id, in: contents)
        setLiked(now, id: id, favourited: contents.isFavourited(id))
        return [.reconfigure([id]), .liked(id, now)]  // it keeps its place until the order is chosen again
    }
}

/// What a key asks of the screen (the view, the data source, the scheduler), beyond the
/// state, which has already changed (every key draws a new frame anyway).
enum GridEffect: Equatable {
    /// The terminal's size or the HUD changed: lay the grid out again.
    case relayout
    /// Paint the whole terminal again (Ctrl-L: after another program wrote over it).
    case repaint
    /// The filter or the order changed: compute the posts to show again.
    case requery
    /// The selection moved: both cells' borders change, and the new one is scrolled into view.
    case selectionMoved(from: Int, to: Int)
    case fling(Double)
    case scroll(rows: Int)
    case wheel(rows: Int)
    case page(Int)
    case scrollToTop, scrollToBottom
    /// Configure these posts' cells again (a like).
    case reconfigure([Int])
    /// The person liked (true) or unliked post `id`: keep it, and send it to a feed's server.
    case liked(Int, Bool)
    case openDetail(Int)
    case closeDetail
    case toggleIdleWork
    case toggleRefreshRate

    /// Whether the person acted on the grid as shown: moved, scrolled, ordered, filtered,
    /// opened or liked a post. The saved place is then no longer gone back to (the grid
    /// would jump away from what they just did).
    var actsOnTheShownGrid: Bool {
        switch self {
        case .requery, .selectionMoved, .fling, .scroll, .wheel, .page, .scrollToTop, .scrollToBottom, .liked, .openDetail: true
        case .relayout, .repaint, .reconfigure, .closeDetail, .toggleIdleWork, .toggleRefreshRate: false
        }
    }
}

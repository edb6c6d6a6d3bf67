import DestinationsModel
import TerminalFront

/// What the person has chosen, and nothing else: the selected post, the filter and the
/// order, likes, which overlay is open, the HUD. A value with a pure ``handle(_:columns:)``:
/// a key changes the state and returns what the screen must do about it, so every key's
/// meaning is tested without a terminal, a view or a clock (`GridStateTests`).
struct GridState: Equatable {
    /// The selected post's id (1-based, as the data source's items).
    var selected = 1
    var quit = false
    /// Likes added in this session, by post id (the catalogue itself is read-only).
    var addedLikes: [Int: Int] = [:]
    var sortOrder = PostOrder.catalogue
    /// The filter in force; while ``isEditingFilter``, each keystroke changes it.
    var filter = ""
    var isEditingFilter = false
    var showsHUD: Bool
    var showsHelp = false
    /// The post shown large over the grid.
    var detailID: Int?
    var imageMode: ImageMode

    /// The data a query must produce: which posts, in which order.
    var query: PostQuery { PostQuery(filter: filter, order: sortOrder, addedLikes: addedLikes) }

    init(showsHUD: Bool, imageMode: ImageMode) {
        self.showsHUD = showsHUD
        self.imageMode = imageMode
    }

    func likesAdded(to id: Int) -> Int { addedLikes[id, default: 0] }

    /// Applies `key` and returns what the screen must do. `columns` is the grid's width in
    /// cells (Down moves the selection by a row).
    mutating func handle(_ key: Key, columns: Int) -> [GridEffect] {
        if case .resize = key { return [.relayout] }
        if showsHelp {
            showsHelp = false
            return []
        }
        if isEditingFilter { return handleFilter(key) }
        if let open = detailID { return handleDetail(key, open: open) }
        switch key {
        case .character("q"): quit = true
        case .escape where !filter.isEmpty:
            filter = ""
            return [.requery]
        case .escape: quit = true
        case .character("?"): showsHelp = true
        case .enter:
            detailID = selected
            return [.openDetail(selected)]
        case .character("j"), .down: return [.moveSelection(by: columns)]
        case .character("k"), .up: return [.moveSelection(by: -columns)]
        case .character("l"), .right: return [.moveSelection(by: 1)]
        case .character("h"), .left: return [.moveSelection(by: -1)]
        case .character("J"): return [.fling(1)]
        case .character("K"): return [.fling(-1)]
        case .control(0x05): return [.scroll(rows: 1)]  // Ctrl-E
        case .control(0x19): return [.scroll(rows: -1)]  // Ctrl-Y
        case .wheel(let notches): return [.wheel(rows: notches * 3)]
        case .character("L"), .character("+"): return like(selected)
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

    private mutating func handleDetail(_ key: Key, open: Int) -> [GridEffect] {
        switch key {
        case .character("q"):
            quit = true
            return []
        case .escape, .enter, .backspace:
            detailID = nil
            return [.closeDetail]
        case .character("L"), .character("+"): return like(open)
        case .character("?"):
            showsHelp = true
            return []
        default: return []
        }
    }

    private mutating func like(_ id: Int) -> [GridEffect] {
        addedLikes[id, default: 0] += 1
        return [.reconfigure([id])]  // it keeps its place until the order is chosen again
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
    /// Move the selection by this many items in the shown order (the screen knows it).
    case moveSelection(by: Int)
    case fling(Double)
    case scroll(rows: Int)
    case wheel(rows: Int)
    case page(Int)
    case scrollToTop, scrollToBottom
    /// Configure these posts' cells again (a like).
    case reconfigure([Int])
    case openDetail(Int)
    case closeDetail
    case toggleIdleWork
    case toggleRefreshRate
}

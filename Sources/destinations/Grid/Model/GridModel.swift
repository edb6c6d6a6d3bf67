import DestinationsModel
import RenderLoop
import TerminalFront

/// Everything the app's state is, in one value: the selected post, the post open large,
/// the filter and the order, likes as the person sees them, the overlays, the toggles, and
/// the place being restored. It changes only in ``update(_:in:)``, which takes an event
/// and returns what the view, the feed or the loop must do about it (Elm's update; Bubble
/// Tea's `Update`). Every stored property is `private(set)`: the view draws from a copy,
/// the loop reads it, nobody else writes it (ArchitectureTests checks). Every key's
/// meaning is tested on the model alone (`GridModelTests`), without a terminal, a view or
/// a clock.
struct GridModel: Equatable {
    /// The selected post's id (1-based, as the data source's items).
    private(set) var selected = 1
    private(set) var quit = false
    /// The person's word on posts, over the catalogue's.
    private(set) var likes = LikeWords()
    private(set) var sortOrder = PostOrder.catalogue
    /// The filter in force; while ``isEditingFilter``, each keystroke changes it.
    private(set) var filter = ""
    private(set) var isEditingFilter = false
    /// The HUD under the grid and the help over it.
    private(set) var overlays: Overlays
    /// The post shown large over the grid.
    /// The post shown large over the grid, and which of its pictures.
    private(set) var open: OpenPost?
    private(set) var imageMode: ImageMode
    /// Where the grid is asked to go: the saved place, the end of a feed.
    private(set) var seeking = Seeking()
    /// Prefetching in idle time and the refresh rate, as the person set them.
    private(set) var toggles: Toggles
    /// Which warned posts are shown as they are (content warnings, sensitive media).
    private(set) var sensitive: SensitiveWords

    /// The overlays a key shows and hides.
    struct Overlays: Equatable {
        var hud: Bool
        var help = false
    }

    /// The post open large: its id and which picture (0: its first).
    struct OpenPost: Equatable {
        var id: Int
        var picture = 0
    }

    var showsHUD: Bool { overlays.hud }
    var showsHelp: Bool { overlays.help }
    /// The post shown large over the grid.
    var detailID: Int? { open?.id }
    /// The picture of the open post shown large (0: its first).
    var detailPicture: Int { open?.picture ?? 0 }

    /// The person's toggles the frame loop carries out.
    struct Toggles: Equatable {
        var prefetch: Bool
        var refreshRate: RefreshRate
    }

    /// What the grid is asked to reach beyond the screen.
    struct Seeking: Equatable {
        /// The saved place's post (its state key), until the grid shows it.
        var place: String?
        /// `G` on a feed, or a saved place further down: keep paging until the end.
        var pagesToTheEnd = false
    }

    init(showsHUD: Bool, imageMode: ImageMode, prefetch: Bool = true, refreshRate: RefreshRate = .hz60, showsSensitive: Bool = false) {
        overlays = Overlays(hud: showsHUD)
        self.imageMode = imageMode
        toggles = Toggles(prefetch: prefetch, refreshRate: refreshRate)
        sensitive = SensitiveWords(showsAll: showsSensitive)
    }

    /// Whether post `id` is hidden behind its warning now: the one place this is decided.
    func isHidden(_ id: Int, in contents: some GridContents) -> Bool { sensitive.isHidden(id, warned: contents.hasWarning(id)) }

    /// The data a query must produce: which posts, in which order.
    var query: PostQuery { PostQuery(filter: filter, order: sortOrder, addedLikes: likes.added) }

    func likesAdded(to id: Int) -> Int { likes.added[id, default: 0] }

    /// Whether the person likes post `id` now: their word, else the catalogue's. The one
    /// place this is decided (the view asks it too).
    func isLiked(_ id: Int, favourited: Bool) -> Bool { likes.liked[id] ?? favourited }

    func isLiked(_ id: Int, in contents: some GridContents) -> Bool { isLiked(id, favourited: contents.isFavourited(id)) }

    /// Applies `event` and returns what must be done about it; `contents` is the grid as shown.
    mutating func update(_ event: GridEvent, in contents: some GridContents) -> [GridEffect] {
        switch event {
        case .key(let key):
            let effects = handle(key, in: contents)
            // A key that acts on the grid while the saved place is still sought wins: the
            // grid would otherwise jump away from what the person just did.
            // `G` itself still pages on to the end: the person asked for it.
            if seeking.place != nil, effects.contains(where: \.actsOnTheShownGrid) {
                seeking = Seeking(place: nil, pagesToTheEnd: effects.contains(.scrollToBottom))
            }
            return effects
        case .postsShownChanged:
            guard contents.index(of: selected) == nil, let first = contents.identifier(at: 0) else { return [] }
            selected = first  // drawn at the commit: nothing to configure again
            return []
        case .likeWord(let id, let liked, let favourited):
            likes.set(liked, id: id, favourited: favourited)
            return [.reconfigure([id])]
        case .savedPlace(let post, let filter, let order):
            seeking = Seeking(place: post, pagesToTheEnd: true)  // a feed pages on until the post comes
            guard filter != self.filter || order != sortOrder else { return [] }
            self.filter = filter
            sortOrder = order
            return [.requeryQuietly]
        case .placeFound(let id):
            stopSeeking()
            return select(id, in: contents)
        case .placeOutOfReach:
            stopSeeking()
            return []
        case .feedEnded:
            seeking.pagesToTheEnd = false
            return []
        }
    }

    private mutating func stopSeeking() { seeking = Seeking() }

    /// Selects `id` (a found place, a test): nothing to do when it is not shown.
    private mutating func select(_ id: Int, in contents: some GridContents) -> [GridEffect] {
        guard id != selected, let index = contents.index(of: id) else { return [] }
        let old = selected
        selected = id
        return [.selectionMoved(from: old, to: id, index: index)]
    }

    private mutating func handle(_ key: Key, in contents: some GridContents) -> [GridEffect] {
        if case .resize = key { return [.relayout] }
        if overlays.help {
            overlays.help = false
            return []
        }
        if isEditingFilter { return handleFilter(key) }
        if let open { return handleDetail(key, id: open.id, in: contents) }
        switch key {
        case .character("q"): quit = true
        case .escape where !filter.isEmpty:
            filter = ""
            return [.requery]
        case .escape: quit = true
        case .character("?"): overlays.help = true
        case .enter:
            guard contents.index(of: selected) != nil else { return [] }
            open = OpenPost(id: selected)
            return [.openDetail(selected)]
        case .character("x"):
            guard contents.index(of: selected) != nil else { return [] }
            return toggleHidden(selected, in: contents)
        case .character("X"): return toggleShowsAll()
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
            overlays.hud.toggle()
            return [.relayout]
        case .character("p"):
            toggles.prefetch.toggle()
            return [.idleWork(toggles.prefetch)]
        case .character("i"): imageMode = imageMode.next
        case .character("r"):
            toggles.refreshRate = toggles.refreshRate == .hz60 ? .hz120 : .hz60
            return [.refreshRate(toggles.refreshRate)]
        case .pageDown, .character(" "): return [.page(1)]
        case .pageUp: return [.page(-1)]
        case .character("g"), .home:
            seeking.pagesToTheEnd = false
            return [.scrollToTop]
        case .character("G"), .end:
            seeking.pagesToTheEnd = true
            return [.scrollToBottom]
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

    private mutating func handleDetail(_ key: Key, id: Int, in contents: some GridContents) -> [GridEffect] {
        switch key {
        case .character("q"):
            quit = true
            return []
        case .escape, .enter, .backspace:
            open = nil  // the model's open post (the id is `id`)
            return [.closeDetail]
        case .character("L"), .character("+"): return like(id, in: contents)
        case .character("?"):
            overlays.help = true
            return []
        case .character("x"): return toggleHidden(id, in: contents)
        case .character("X"): return toggleShowsAll()
        case .character("o"): return [.openPage(id)]
        case .character("l"), .right: return turnPicture(by: 1, of: id, in: contents)
        case .character("h"), .left: return turnPicture(by: -1, of: id, in: contents)
        default: return []
        }
    }

    /// `x`: a warned post shown as it is, or hidden again (Mastodon's "show more").
    private mutating func toggleHidden(_ id: Int, in contents: some GridContents) -> [GridEffect] {
        guard contents.hasWarning(id) else { return [] }
        sensitive.toggle(id)
        return [.hidden(id, isHidden(id, in: contents))]
    }

    /// `X`: every warned post shown as it is, or every one hidden again; the choice is kept
    /// for the next runs (Mastodon's "always show media" preference).
    private mutating func toggleShowsAll() -> [GridEffect] {
        sensitive.showAll(!sensitive.showsAll)
        return [.sensitiveShown(sensitive.showsAll)]
    }

    /// ←/→ in the detail view: the open post's next or previous picture, stopping at either end.
    private mutating func turnPicture(by delta: Int, of id: Int, in contents: some GridContents) -> [GridEffect] {
        let target = min(max(detailPicture + delta, 0), contents.pictureCount(id) - 1)
        guard target != detailPicture else { return [] }
        open?.picture = target
        return [.showPicture(target)]
    }

    /// Moves the selection by `delta` places in the order shown (±1 across, ±a row down),
    /// stopping at either end. A selection no longer shown goes to the first post shown.
    private mutating func moveSelection(by delta: Int, in contents: some GridContents) -> [GridEffect] {
        guard let index = contents.index(of: selected) else { return update(.postsShownChanged, in: contents) }
        let target = min(max(index + delta, 0), contents.count - 1)
        guard target != index, let next = contents.identifier(at: target) else { return [] }
        let old = selected
        selected = next
        return [.selectionMoved(from: old, to: next, index: target)]
    }

    /// `L`: likes the post, or takes the like back — as Mastodon's favourite is, one per
    /// person. Shown at once (optimistic); the loop keeps it and sends it.
    private mutating func like(_ id: Int, in contents: some GridContents) -> [GridEffect] {
        let now = !isLiked(id, in: contents)
        likes.set(now, id: id, favourited: contents.isFavourited(id))
        return [.reconfigure([id]), .liked(id, now)]  // it keeps its place until the order is chosen again
    }
}

/// The person's word on posts, over the catalogue's (``GridContents/isFavourited(_:)``):
/// liked or not, by post id, from this session's `L`, the saved likes and the outbox.
struct LikeWords: Equatable {
    private(set) var liked: [Int: Bool] = [:]
    /// What ``liked`` adds to each post's count: +1, −1 (a like the catalogue counted was
    /// taken back) or nothing (the catalogue is read-only).
    private(set) var added: [Int: Int] = [:]

    /// `favourited`: what the catalogue says.
    mutating func set(_ value: Bool, id: Int, favourited: Bool) {
        liked[id] = value
        let change = (value ? 1 : 0) - (favourited ? 1 : 0)
        added[id] = change == 0 ? nil : change
    }
}

/// The person's word on warned posts: shown as they are or hidden, by post id, over the
/// default (`--show-sensitive` or the saved `X` shows all; a post toggled with `x` is the exception).
struct SensitiveWords: Equatable {
    private(set) var showsAll: Bool
    /// Posts whose state is the opposite of the default.
    private(set) var exceptions: Set<Int> = []

    init(showsAll: Bool) { self.showsAll = showsAll }

    func isHidden(_ id: Int, warned: Bool) -> Bool { warned && exceptions.contains(id) == showsAll }

    mutating func toggle(_ id: Int) {
        if exceptions.remove(id) == nil { exceptions.insert(id) }
    }

    /// Every warned post shown (true) or hidden: no exception is left.
    mutating func showAll(_ shows: Bool) {
        showsAll = shows
        exceptions = []
    }
}

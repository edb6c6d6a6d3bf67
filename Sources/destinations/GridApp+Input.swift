import CellCanvas
import CollectionView
import DiffableData
import TerminalFront

/// Keys, and the data changes they make: selection, like, sort, filter.
extension GridApp {
    func handle(_ key: Key, at time: Duration) {
        if case .resize = key { return resize() }
        if showsHelp {
            showsHelp = false
            return
        }
        if filterText != nil { return handleFilter(key) }
        if let open = detail {
            switch key {
            case .character("q"): quit = true
            case .escape, .enter, .backspace: closeDetail(open)
            case .character("L"), .character("+"): like(open.id)
            case .character("?"): showsHelp = true
            default: break
            }
            return
        }
        let columns = view.layout.columns
        switch key {
        case .character("q"): quit = true
        case .escape where !appliedFilter.isEmpty:
            appliedFilter = ""
            refreshData()
        case .escape: quit = true
        case .character("?"): showsHelp = true
        case .enter: openDetail(selected)
        case .character("j"), .down: moveSelection(by: columns, at: time)
        case .character("k"), .up: moveSelection(by: -columns, at: time)
        case .character("l"), .right: moveSelection(by: 1, at: time)
        case .character("h"), .left: moveSelection(by: -1, at: time)
        case .character("J"): fling(1, at: time)
        case .character("K"): fling(-1, at: time)
        case .control(0x05): view.scroll(byRows: 1, at: time)  // Ctrl-E
        case .control(0x19): view.scroll(byRows: -1, at: time)  // Ctrl-Y
        case .wheel(let notches): view.wheel(rows: Double(notches * 3), at: time)
        case .character("L"), .character("+"): like(selected)
        case .character("s"):
            sortOrder = sortOrder.next
            refreshData()
        case .character("/"): filterText = appliedFilter
        case .character("H"):
            showsHUD.toggle()
            resize()
        case .character("p"): scheduler.isIdleWorkEnabled.toggle()
        case .character("i"): imageMode = imageMode.next
        case .character("r"): scheduler.changeRefreshRate(to: scheduler.upcomingRefreshRate == .hz60 ? .hz120 : .hz60)
        case .pageDown, .character(" "): view.scrollPage(1, at: time)
        case .pageUp: view.scrollPage(-1, at: time)
        case .character("g"), .home: view.scrollToTop()
        case .character("G"), .end: view.scrollToBottom()
        case .control(0x0C): terminal.invalidate()  // Ctrl-L redraws
        default: break
        }
    }

    /// A fling in `direction`; flinging again while moving the same way adds speed, as a
    /// second swipe does on a phone.
    func fling(_ direction: Double, at time: Duration) {
        let current = view.physics.velocity
        let speed = current * direction > 0 ? current + direction * Self.flingSpeed : direction * Self.flingSpeed
        view.fling(speed: speed, at: time)
    }

    /// Typing after `/`: every keystroke filters (a new snapshot, animated); Enter keeps
    /// the filter, Esc clears it.
    func handleFilter(_ key: Key) {
        switch key {
        case .enter: filterText = nil
        case .escape:
            filterText = nil
            appliedFilter = ""
            refreshData()
        case .backspace:
            if var text = filterText, !text.isEmpty {
                text.removeLast()
                filterText = text
            }
            appliedFilter = filterText ?? ""
            refreshData()
        case .character(let character):
            filterText?.append(character)
            appliedFilter = filterText ?? ""
            refreshData()
        default: break
        }
    }

    /// The posts to show, filtered and sorted. Matching and ordering are decided once per
    /// catalogue entry and then applied to every post by integer lookups: a keystroke in
    /// the filter must fit in a frame even over a million posts.
    func visibleIDs() -> [Int] {
        var ids = Array(1...postCount)
        let entries = catalogue.baseCount
        func entry(_ id: Int) -> Int { catalogue.entryIndex(ofPost: id - 1) }
        if !appliedFilter.isEmpty {
            let needle = appliedFilter.lowercased()
            let matches = (0..<entries).map { let post = catalogue.post($0); return post.title.lowercased().contains(needle) || post.region.lowercased().contains(needle) }
            ids = ids.filter { matches[entry($0)] }
        }
        func ranks(by key: (Int) -> String) -> [Int] {
            let order = (0..<entries).sorted { (key($0), $0) < (key($1), $1) }
            var rank = [Int](repeating: 0, count: entries)
            for (position, index) in order.enumerated() { rank[index] = position }
            return rank
        }
        switch sortOrder {
        case .catalogue: break
        case .title:
            let rank = ranks { catalogue.post($0).title }
            ids.sort { (rank[entry($0)], $0) < (rank[entry($1)], $1) }
        case .region:
            let rank = ranks { catalogue.post($0).region }
            ids.sort { (rank[entry($0)], $0) < (rank[entry($1)], $1) }
        case .likes:
            var likesByID = [Int](repeating: 0, count: postCount + 1)
            for id in ids { likesByID[id] = likes(of: id) }
            ids.sort { (likesByID[$0], $1) > (likesByID[$1], $0) }
        }
        return ids
    }

    /// A new snapshot from the current filter and order, applied with animation.
    func refreshData(animated: Bool = true) {
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(visibleIDs())
        source.apply(snapshot, animatingDifferences: animated)
        if !snapshot.contains(item: selected), let first = snapshot.itemIdentifiers.first { selected = first }
    }

    func like(_ id: Int) {
        addedLikes[id, default: 0] += 1
        source.reconfigureItems([id])
    }

    /// Moves the selection by `delta` items (±1 across, ±columns down), reconfiguring the
    /// two cells whose border changes, and scrolls it into view.
    func moveSelection(by delta: Int, at time: Duration) {
        let snapshot = source.snapshot()
        guard let index = snapshot.indexOfItem(selected) else { return }
        let target = min(max(index + delta, 0), snapshot.numberOfItems - 1)
        guard target != index else { return }
        let old = selected
        guard let next = snapshot.itemIdentifier(at: IndexPath(item: target, section: 0)) else { return }
        selected = next
        source.reconfigureItems([old, selected])
        let frame = view.layout.frame(for: IndexPath(item: target, section: 0))
        let top = view.physics.offset, height = Double(view.viewport.height)
        if Double(frame.y) < top { view.scroll(byRows: Double(frame.y) - top, at: time) }
        if Double(frame.maxY) > top + height { view.scroll(byRows: Double(frame.maxY) - top - height, at: time) }
    }

    // MARK: Detail

    /// Where the detail view draws: the grid's area.
    var detailArea: Rect { view.viewport }

    /// Opens `id` large: its placeholder at once, the photo prepared off the main thread
    /// at that size and swapped in when it arrives.
    func openDetail(_ id: Int) {
        guard source.snapshot().contains(item: id) else { return }
        let opened = DetailView(id: id, asset: catalogue.post(id - 1).asset, area: detailArea)
        detail = opened
        loadDetailImage(opened)
    }

    func loadDetailImage(_ shown: DetailView) {
        shown.download?.cancel()
        let key = shown.imageKey
        switch store.asset(for: key) {
        case .prepared(let image): shown.show(image, placeholder: false)
        case .failed(let image, let error):
            shown.show(image, placeholder: true)
            shown.failure = error.shortLabel
        case .placeholder(let image):
            shown.show(image, placeholder: true)
            shown.download = store.download(key, priority: -1) { [weak shown] result in
                guard let shown, shown.imageKey == key else { return }
                switch result {
                case .success(let image): shown.show(image, placeholder: false)
                case .failure(let error): shown.failure = error.shortLabel
                }
            }
        }
    }

    func closeDetail(_ open: DetailView) {
        open.download?.cancel()
        detail = nil
    }
}

import CellCanvas

/// The terminal's colour pairs as ``CanvasPresenter`` hands them out: numbers given on
/// demand, and recycled when the terminal's supply runs out. Bookkeeping only: the
/// presenter defines the pairs in ncurses and knows which cells are on screen.
struct ColorPairs {
    /// A pair's colours as the terminal numbers them: what a pair is defined by.
    struct Key: Hashable {
        let foreground: Int32
        let background: Int32
    }

    /// The pairs defined, by colours: their number and the last frame that used them.
    var defined: [Key: (number: Int32, lastUse: Int)] = [:]
    /// Numbers a round freed, given out before any round is tried again.
    var free: [Int32] = []
    /// The next number never given out (pair 0 is the terminal's default colours).
    var next: Int32 = 1
    /// Numbers from here up do not exist on this terminal.
    let limit: Int32
    /// The frame being drawn: a pair is stamped with it when used, so rounds free the
    /// least recently used.
    var frame = 0
    /// The frame in which a round found no pair to free: no other round is tried in it.
    var fruitlessRound = -1
    /// Cells this frame drew in a nearby pair (none of their own was free), recorded as not shown.
    var approximated: [(x: Int, y: Int, cell: Cell)] = []
    /// Pairs recycled so far.
    var recycled = 0
    /// Rounds so far (times the pairs ran out).
    var rounds = 0
    /// Cells drawn in the nearest defined pair so far.
    var approximatedCells = 0

    /// No pair defined yet, on a terminal whose pair numbers stop below `limit`.
    init(limit: Int32) { self.limit = limit }

    /// The number of the pair defined for `key`, stamped as used this frame; nil when
    /// there is none.
    mutating func use(_ key: Key) -> Int32? {
        guard let existing = defined[key] else { return nil }
        defined[key]?.lastUse = frame
        return existing.number
    }

    /// Records `number` as the pair of `key`, used this frame.
    mutating func define(_ key: Key, as number: Int32) {
        defined[key] = (number, frame)
    }

    /// One round: frees up to half of the pairs, the least recently used of those not in
    /// `shown` and not used this frame. A round that frees none marks the frame fruitless.
    /// - Complexity: O(pairs log pairs).
    mutating func recycle(keeping shown: Set<Key>) {
        let candidates = defined.filter { $0.value.lastUse < frame && !shown.contains($0.key) }.sorted { $0.value.lastUse < $1.value.lastUse }
        let freed = candidates.prefix(max(1, defined.count / 2))
        for (key, entry) in freed {
            defined[key] = nil
            free.append(entry.number)
        }
        recycled += freed.count
        rounds += 1
        if freed.isEmpty { fruitlessRound = frame }
    }

    /// More colour combinations on screen than the terminal has pairs (an 8- or 16-colour
    /// terminal showing symbol mosaics): the cell is drawn in the defined pair nearest to
    /// its colours — a mosaic cell a shade off, rather than another cell on screen in
    /// someone else's colours. The pair chosen is stamped as used this frame.
    mutating func nearest(to key: Key, capability: ColorCapability) -> Int32 {
        func rgb(_ number: Int32) -> UInt32 { capability == .direct ? UInt32(number) : ColorCapability.rgbOfXterm(Int(number) & 0xFF) }
        func distance(_ a: Int32, _ b: Int32) -> Int {
            if a == b { return 0 }
            if a < 0 || b < 0 { return 3 * 255 * 255 + 1 }  // the default colour is unknown: as far as can be
            let x = rgb(a), y = rgb(b)
            let dr = Int(x >> 16) - Int(y >> 16), dg = Int(x >> 8 & 0xFF) - Int(y >> 8 & 0xFF), db = Int(x & 0xFF) - Int(y & 0xFF)
            return dr * dr + dg * dg + db * db
        }
        var best: (key: Key?, number: Int32, cost: Int) = (nil, 0, distance(key.foreground, -1) + distance(key.background, -1))
        for (candidate, entry) in defined {
            let cost = distance(key.foreground, candidate.foreground) + distance(key.background, candidate.background)
            if cost < best.cost { best = (candidate, entry.number, cost) }
        }
        if let chosen = best.key { defined[chosen]?.lastUse = frame }
        return best.number
    }
}

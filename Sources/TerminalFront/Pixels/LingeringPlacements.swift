/// Where the terminal holds placements that stay until deleted (kitty's direct placement,
/// `a=p`: unlike sixel pixels, text written over their cells does not remove them), and
/// the deletions a frame sends before its new placements.
///
/// The terminal moves a placement with the text when it scrolls a region the placement is
/// inside, and drops the ones pushed out of it (kitty: `scroll_filter_margins_func`); this
/// does the same with what it keeps, so it stays what the terminal holds. Deletions are by
/// cell (`d=p`: every placement over the row's left cell), so one that was placed twice, or
/// moved where this did not expect, goes too.
/// Protocol: https://sw.kovidgoyal.net/kitty/graphics-protocol/#deleting-images
struct LingeringPlacements {
    struct Position: Hashable {
        let x: Int
        let y: Int
    }

    /// One image row placed with its left cell at a position.
    struct Placement: Equatable {
        let image: UInt32
        let row: Int
        let columns: Int
    }

    private(set) var placed: [Position: Placement] = [:]
    /// The deletions this frame sends before its placements.
    private(set) var deletions: [UInt8] = []
    /// The deletions this frame sends before its cells (before the terminal scrolls).
    private(set) var preamble: [UInt8] = []
    /// Cells this frame's deletions clear.
    private var deletedThisFrame = Set<Position>()

    mutating func beginFrame() {
        deletions.removeAll(keepingCapacity: true)
        preamble.removeAll(keepingCapacity: true)
        deletedThisFrame.removeAll(keepingCapacity: true)
    }

    /// The screen was cleared: every placement on it is deleted (`d=a`; image data stays).
    mutating func deleteAll() {
        placed.removeAll(keepingCapacity: true)
        deletions += Array("\u{1B}_Ga=d,d=a,q=2\u{1B}\\".utf8)
    }

    /// The terminal scrolls `rows` up by `by` (down when negative) this frame. Returns where
    /// the placements that were on the region's last row should be placed again.
    ///
    /// kitty 0.26 (Debian 12's) does not move a placement on the last row of the scrolling
    /// region (its test of "inside the region" is one row short), so the text would move
    /// and the picture stay. Those are deleted before the scroll (``preamble``, sent ahead
    /// of the frame's cells) and placed again where their row went.
    mutating func scroll(rows: Range<Int>, by: Int) -> [(position: Position, columns: Int)] {
        guard by != 0, !placed.isEmpty else { return [] }
        var moved: [Position: Placement] = [:]
        var again: [(position: Position, columns: Int)] = []
        moved.reserveCapacity(placed.count)
        for (position, placement) in placed {
            guard rows.contains(position.y) else {
                moved[position] = placement
                continue
            }
            let y = position.y - by
            if position.y == rows.upperBound - 1 {
                preamble += Self.deletion(at: position)
                if rows.contains(y) { again.append((Position(x: position.x, y: y), placement.columns)) }
            } else if rows.contains(y) {
                moved[Position(x: position.x, y: y)] = placement
            }
        }
        placed = moved
        return again
    }

    /// Keeps the placements `keep` says still stand and deletes the others.
    mutating func retain(_ keep: (Position, Placement) -> Bool) {
        for (position, placement) in placed where !keep(position, placement) {
            placed[position] = nil
            delete(at: position)
        }
    }

    /// `placement` is placed at `position` this frame; whatever was over that cell is
    /// deleted first (known or not: a placement is never stacked on another).
    mutating func place(_ placement: Placement, at position: Position) {
        delete(at: position)
        placed[position] = placement
    }

    private mutating func delete(at position: Position) {
        guard deletedThisFrame.insert(position).inserted else { return }
        deletions += Self.deletion(at: position)
    }

    /// The image is gone from the terminal with its placements (`d=I`).
    mutating func forget(image id: UInt32) {
        placed = placed.filter { $0.value.image != id }
    }

    /// Deletes every placement over the cell at `position` (1-based in the command).
    static func deletion(at position: Position) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=p,x=\(position.x + 1),y=\(position.y + 1),q=2\u{1B}\\".utf8)
    }
}

import CellCanvas
import DiffableData

/// Base class of every cell: subclass it, draw in ``draw(in:frame:clip:state:)`` (or
/// ``draw(in:frame:clip:)`` when the cell looks the same selected or not), reset in
/// ``prepareForReuse()``. Cells are made and configured only through a ``CellRegistration``.
open class CollectionViewCell {
    /// The registration whose pool this cell returns to.
    public internal(set) var registration: ObjectIdentifier?
    /// The item it was last configured for: lets tests catch a cell showing two items.
    public internal(set) var configuredItem: AnyHashable?

    /// A blank cell; the registration's handler configures it.
    public required init() {}

    /// Called when the cell leaves the pool for a new item, before the handler runs.
    open func prepareForReuse() {}

    /// Draws the cell; `frame` is where it sits on the canvas, `clip` what may be touched.
    open func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {}

    /// Draws the cell in `state` (selected or not): what the view's commit calls. The
    /// default ignores the state and calls ``draw(in:frame:clip:)``. Drawing the selection
    /// here, rather than configuring it into the cell, makes moving the selection cost no
    /// configuration at all (UIKit's `configurationState`, ratatui's `StatefulWidget`).
    open func draw(in canvas: inout Canvas, frame: Rect, clip: Rect, state: CellState) {
        draw(in: &canvas, frame: frame, clip: clip)
    }
}

/// What a cell is drawn as beyond its configuration: given by the view at each commit.
public struct CellState: Equatable, Sendable {
    /// The item is the view's selection (``CollectionView/commit(at:into:selection:)``).
    public var isSelected: Bool

    /// A state, selected or not.
    public init(isSelected: Bool = false) {
        self.isSelected = isSelected
    }
}

/// How one kind of cell is made and configured for an item: create it once, outside the
/// cell provider (created inside, its pool would be new each time and nothing would ever
/// be reused, as the seeds warn).
public struct CellRegistration<Cell: CollectionViewCell, Item> {
    final class Token {}

    let token = Token()
    let handler: (Cell, ItemPath, Item) -> Void

    /// A registration whose `handler` configures a cell for an item: on a new or reused cell, and again on the same cell for `reconfigureItems`.
    public init(handler: @escaping (Cell, ItemPath, Item) -> Void) {
        self.handler = handler
    }

    var id: ObjectIdentifier { ObjectIdentifier(token) }
}

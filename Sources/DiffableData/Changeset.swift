/// What changed between two snapshots, in the order a collection view applies it.
///
/// Batch-update index semantics, as `performBatchUpdates` expects:
/// - deletes and move sources are positions in the **old** snapshot; deletes are listed
///   highest first, so removing them one by one never shifts a later one;
/// - inserts and move destinations are positions in the **new** snapshot, lowest first;
/// - reloads and reconfigures carry both positions and are applied **after** the
///   structural changes, at their new position, so an item that is moved *and*
///   reconfigured keeps its cell and is reconfigured where it lands.
///
/// Item moves are the items that changed section plus, within each section, the items
/// outside a longest increasing subsequence of the kept ones: the fewest possible. Items
/// travel with a moved section without being listed as moves.
public struct Changeset<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    /// A section inserted (its index after) or deleted (its index before).
    public struct SectionChange: Hashable, Sendable {
        /// The section's identifier.
        public let section: SectionID
        /// Its index in the snapshot it is in (the new one for inserts, the old for deletes).
        public let index: Int

        /// A change of `section` at `index`.
        public init(section: SectionID, index: Int) {
            self.section = section
            self.index = index
        }
    }

    /// A section that stays but changes place (its items travel with it).
    public struct SectionMove: Hashable, Sendable {
        /// The section's identifier.
        public let section: SectionID
        /// Its index in the old snapshot.
        public let from: Int
        /// Its index in the new snapshot.
        public let to: Int

        /// A move of `section` from `from` to `to`.
        public init(section: SectionID, from: Int, to: Int) {
            self.section = section
            self.from = from
            self.to = to
        }
    }

    /// An item inserted (its path after), deleted (its path before), reloaded or reconfigured.
    public struct ItemChange: Hashable, Sendable {
        /// The item's identifier.
        public let item: ItemID
        /// Its path in the snapshot it is in (the new one for inserts, the old for deletes).
        public let indexPath: ItemPath

        /// A change of `item` at `indexPath`.
        public init(item: ItemID, indexPath: ItemPath) {
            self.item = item
            self.indexPath = indexPath
        }
    }

    /// An item that stays but changes place (a cell that glides when animated).
    public struct ItemMove: Hashable, Sendable {
        /// The item's identifier.
        public let item: ItemID
        /// Its path in the old snapshot.
        public let from: ItemPath
        /// Its path in the new snapshot.
        public let to: ItemPath

        /// A move of `item` from `from` to `to`.
        public init(item: ItemID, from: ItemPath, to: ItemPath) {
            self.item = item
            self.from = from
            self.to = to
        }
    }

    /// Old index, highest first.
    public internal(set) var sectionDeletes: [SectionChange] = []
    /// New index, lowest first.
    public internal(set) var sectionInserts: [SectionChange] = []
    /// By destination, lowest first.
    public internal(set) var sectionMoves: [SectionMove] = []
    /// Sections whose cells are all replaced; old and new index.
    public internal(set) var sectionReloads: [SectionMove] = []
    /// Old index path, highest first.
    public internal(set) var itemDeletes: [ItemChange] = []
    /// New index path, lowest first.
    public internal(set) var itemInserts: [ItemChange] = []
    /// By destination, lowest first.
    public internal(set) var itemMoves: [ItemMove] = []
    /// Items that get a freshly dequeued cell; old and new path.
    public internal(set) var itemReloads: [ItemMove] = []
    /// Items whose existing cell is configured again; old and new path.
    public internal(set) var itemReconfigures: [ItemMove] = []
    /// Items were inserted, deleted or moved, but not listed (``Snapshot/summaryChangeset(to:)``:
    /// a change too large to list that a view applies by laying out again).
    public internal(set) var hasUnlistedItemChanges = false

    /// An empty changeset (what equal snapshots give).
    /// - Complexity: O(1).
    public init() {}

    /// True when nothing, not even a reconfigure, has to happen.
    /// - Complexity: O(1).
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
            && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty
            && itemReloads.isEmpty && itemReconfigures.isEmpty && !hasUnlistedItemChanges
    }

    /// False when only reloads or reconfigures are left (no cell changes position).
    /// - Complexity: O(1).
    public var hasStructuralChanges: Bool {
        !(sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty
            && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty && !hasUnlistedItemChanges)
    }
}

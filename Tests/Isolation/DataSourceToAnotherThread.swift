// expect: error: risks causing data races
// A data source applied from a detached task while its own thread applies too.
import CollectionKit
import DiffableData
import RenderLoop

@MainActor func share(_ snapshot: Snapshot<Int, Int>) {
    let view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: VirtualClock()) { _, _, _ in CollectionViewCell() }
    let source = DiffableDataSource(collectionView: view)
    Task.detached { source.apply(snapshot) }
    source.apply(snapshot)
}

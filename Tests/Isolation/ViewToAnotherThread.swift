// expect: error: risks causing data races
// A collection view used by a detached task while its own thread goes on using it.
import CollectionKit
import RenderLoop

@MainActor func share() {
    let view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: VirtualClock()) { _, _, _ in CollectionViewCell() }
    Task.detached { view.scrollToBottom() }
    view.scrollToTop()
}

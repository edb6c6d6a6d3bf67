// expect: ok
// The control: a view, its data source, the frame loop and a terminal used on the thread
// that made them.
import CellCanvas
import CollectionKit
import DiffableData
import RenderLoop
import TerminalFront

final class Row: CollectionViewCell {}

@MainActor func build() {
    let scheduler = FrameScheduler(clock: VirtualClock())
    let rows = CellRegistration<Row, Int> { _, _, _ in }
    let view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: scheduler.clock) { view, path, item in
        view.dequeueConfiguredReusableCell(using: rows, for: path, item: item)
    }
    let source = DiffableDataSource(collectionView: view)
    var snapshot = Snapshot<Int, Int>()
    snapshot.appendSections([0])
    snapshot.appendItems([1, 2, 3])
    source.apply(snapshot)
    scheduler.idleWork = view
    view.scrollToTop()
    let terminal = TestBackend(rows: 24, columns: 80)
    var canvas = Canvas(columns: 80, rows: 24)
    view.setViewport(canvas.bounds)
    source.applyFinishedUpdates(at: .zero)
    view.commit(at: .zero, into: &canvas)
    terminal.present(canvas)
}

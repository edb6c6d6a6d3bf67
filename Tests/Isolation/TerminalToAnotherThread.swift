// expect: error: risks causing data races
// A terminal backend (here the in-memory one) drawn to from a detached task while its own
// thread presents frames too.
import CellCanvas
import TerminalFront

@MainActor func share() {
    let terminal = TestBackend(rows: 24, columns: 80)
    Task.detached { terminal.present(Canvas(columns: 80, rows: 24)) }
    terminal.present(Canvas(columns: 80, rows: 24))
}

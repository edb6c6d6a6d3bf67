// A process list like top: every second each process's CPU share is read from /proc, the
// rows are reconfigured in place, and the list is sorted again through a snapshot, so
// processes that change places glide to their new rows. Keys: j/k, arrows, q.
import CellCanvas
import CollectionKit
import DiffableData
import Foundation
import RenderLoop
import TerminalFront

struct Process: Sendable { var name = "", ticks = 0, share = 0.0, memoryKB = 0 }

/// /proc/<pid>/stat and statm: the command, CPU ticks so far, resident memory.
func readProcesses() -> [Int: Process] {
    var found: [Int: Process] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = Int(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
        let pages = (try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8))?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        found[pid] = Process(name: String(stat[stat.index(after: open)..<close]), ticks: user + system, memoryKB: pages * 4)
    }
    return found
}

final class ProcessCell: CollectionViewCell {
    var pid = 0, process = Process()
    override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {
        let hot = process.share >= 10
        let row = "\(String(pid).leftPadded(7))  \(String(format: "%5.1f", process.share))%  \(String(process.memoryKB / 1024).leftPadded(6)) MB  \(process.name)"
        canvas.draw(row, at: Point(x: frame.x, y: frame.y), width: frame.width, style: CellStyle(foreground: hot ? .red : .default, bold: hot), clip: clip)
    }
}

extension String { func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self } }

final class ProcessList: TerminalFrameDelegate {
    let terminal: any TerminalBackend
    let scheduler = FrameScheduler(refreshRate: .hz60, clock: MonotonicClock())
    var processes: [Int: Process] = [:]
    lazy var rows = CellRegistration<ProcessCell, Int> { [unowned self] cell, _, pid in
        cell.pid = pid
        cell.process = processes[pid] ?? Process()
    }
    lazy var view = CollectionView<Int, Int>(layout: .list(itemHeight: 1), clock: scheduler.clock) { [unowned self] view, path, pid in
        view.dequeueConfiguredReusableCell(using: rows, for: path, item: pid)
    }
    lazy var source = DiffableDataSource(collectionView: view)
    var lastSample: Duration?
    var done = false

    init(terminal: any TerminalBackend) {
        self.terminal = terminal
        scheduler.keepsLaunchFrameApart = true  // the launch (a full paint) is reported apart
    }

    /// Reads /proc, then sorts by CPU share through a snapshot (moves animate) and
    /// reconfigures every row that stayed, so its figures change in place.
    func sample(at now: Duration) {
        let elapsed = lastSample.map { (now - $0) / .seconds(1) } ?? 1
        var fresh = readProcesses()
        for (pid, old) in processes where fresh[pid] != nil {
            fresh[pid]!.share = Double(fresh[pid]!.ticks - old.ticks) / 100 / max(elapsed, 0.001) * 100
        }
        processes = fresh
        lastSample = now
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(processes.keys.sorted { (processes[$0]!.share, processes[$0]!.memoryKB, $1) > (processes[$1]!.share, processes[$1]!.memoryKB, $0) })
        let kept = source.snapshot().itemIdentifiers.filter { processes[$0] != nil }
        source.apply(snapshot, animatingDifferences: true)
        source.reconfigureItems(kept)
    }

    func commit(_ frame: FrameInfo) {
        let now = frame.presentationTime
        if lastSample.map({ now - $0 >= .seconds(1) }) ?? true { sample(at: now) }
        while let key = terminal.nextKey() {
            switch key {
            case .character("q"): done = true
            case .character("j"), .down: view.scroll(byRows: 1, at: now)
            case .character("k"), .up: view.scroll(byRows: -1, at: now)
            case .pageDown: view.scrollPage(1, at: now)
            case .pageUp: view.scrollPage(-1, at: now)
            default: break
            }
        }
        let (height, width) = terminal.size
        var canvas = Canvas(columns: width, rows: height)
        canvas.draw("    PID    CPU     MEMORY  COMMAND   \(processes.count) processes   \(scheduler.meter.hitches) hitches   q quits",
                    at: Point(x: 0, y: 0), width: width, style: CellStyle(reverse: true))
        let list = Rect(x: 0, y: 1, width: width, height: max(0, height - 1))
        if view.viewport != list { view.setViewport(list) }
        source.applyFinishedUpdates(at: now)  // what was applied since the last frame, once a frame
        view.commit(at: now, into: &canvas)
        terminal.present(canvas)
    }
}

do {
    let terminal = try NcursesBackend.start()
    let app = ProcessList(terminal: terminal)
    let stop = TerminalRunLoop.run(app.scheduler, app, terminal: terminal, signals: TerminationSignals()) { app.done }
    if case .signal(let number) = stop { exit(128 + number) }
} catch {
    FileHandle.standardError.write(Data("process-list: \(error)\n".utf8))
    exit(1)
}

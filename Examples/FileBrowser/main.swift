// A file browser: the files of a folder as a grid, photos (JPEG, PNG) as thumbnails made
// off the main thread by ImagePipeline and delivered by reconfiguring their cell.
// Usage: file-browser [FOLDER]. Keys: arrows or hjkl scroll, PageUp/PageDown, q.
import CellCanvas
import CollectionKit
import DiffableData
import Foundation
import ImagePipeline
import RenderLoop
import TerminalFront

struct FileEntry: Sendable { let name: String, path: String, isPhoto: Bool }

final class FileCell: CollectionViewCell {
    var entry: FileEntry?
    var thumbnail: CellImage?
    override func prepareForReuse() { thumbnail = nil }
    override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect) {
        guard let entry else { return }
        canvas.box(frame, style: CellStyle(dim: true), clip: clip)
        if let thumbnail { canvas.blit(thumbnail, at: Point(x: frame.x + 1, y: frame.y + 1), clip: clip.intersection(frame.insetBy(1))) }
        else { canvas.draw(entry.isPhoto ? "…" : "▤", at: Point(x: frame.x + 2, y: frame.y + 2), clip: clip) }
        canvas.draw(entry.name, at: Point(x: frame.x + 1, y: frame.y + frame.height - 2), width: frame.width - 2, style: CellStyle(bold: true), clip: clip)
    }
}

final class FileBrowser: TerminalFrameDelegate {
    static let thumbnail = (columns: 22, rows: 8)
    let terminal: any TerminalBackend
    let scheduler = FrameScheduler(refreshRate: .hz60, clock: MonotonicClock())
    let entries: [FileEntry]
    let store = AssetStore(source: LocalFileSource(), colorMode: .palette240)
    lazy var files: CellRegistration<FileCell, Int> = CellRegistration { [unowned self] cell, _, index in
        let entry = entries[index]
        cell.entry = entry
        guard entry.isPhoto else { return }
        let key = PreparedImageKey(asset: AssetID(path: entry.path), columns: Self.thumbnail.columns, rows: Self.thumbnail.rows)
        let asset = store.asset(for: key)  // the cache answers at once: prepared or a placeholder
        cell.thumbnail = asset.image
        if asset.isPlaceholder {
            store.downloadOnce(key) { [weak self] result in
                if case .success = result { self?.source.reconfigureItems([index]) }  // re-runs this handler
            }
        }
    }
    lazy var view = CollectionView<Int, Int>(layout: .grid(minimumItemWidth: Self.thumbnail.columns + 2, itemHeight: Self.thumbnail.rows + 3),
                                             clock: scheduler.clock) { [unowned self] view, path, index in
        view.dequeueConfiguredReusableCell(using: files, for: path, item: index)
    }
    lazy var source = DiffableDataSource<Int, Int>(collectionView: view)
    var done = false

    init(folder: String, terminal: any TerminalBackend) {
        self.terminal = terminal
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        entries = names.map { name in
            FileEntry(name: name, path: folder + "/" + name, isPhoto: [".jpg", ".jpeg", ".png"].contains { name.lowercased().hasSuffix($0) })
        }
        var snapshot = Snapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(entries.indices))
        source.apply(snapshot, animatingDifferences: false)
        scheduler.idleWork = view
        scheduler.keepsLaunchFrameApart = true  // the launch (a full paint) is reported apart
    }

    func commit(_ frame: FrameInfo) {
        let now = frame.presentationTime
        store.deliverCompletions(limit: 8)  // finished thumbnails: each reconfigures its cell
        while let key = terminal.nextKey() {
            switch key {
            case .character("q"): done = true
            case .character("j"), .down: view.scroll(byRows: 3, at: now)
            case .character("k"), .up: view.scroll(byRows: -3, at: now)
            case .pageDown, .character(" "): view.scrollPage(1, at: now)
            case .pageUp: view.scrollPage(-1, at: now)
            default: break
            }
        }
        let (rows, columns) = terminal.size
        var canvas = Canvas(columns: columns, rows: rows)
        canvas.draw(" \(entries.count) files   \(store.pendingCount) thumbnails on the way   \(scheduler.meter.hitches) hitches   q quits",
                    at: Point(x: 0, y: 0), width: columns, style: CellStyle(reverse: true))
        let grid = Rect(x: 0, y: 1, width: columns, height: max(0, rows - 1))
        if view.viewport != grid { view.setViewport(grid) }
        source.applyFinishedUpdates(at: now)  // what was applied since the last frame, once a frame
        view.commit(at: now, into: &canvas)
        terminal.present(canvas)
    }
}

let folder = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
var isFolder: ObjCBool = false
guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
    FileHandle.standardError.write(Data("file-browser: \(folder) is not a folder\n".utf8))
    exit(1)
}
do {
    let terminal = try NcursesBackend.start()
    let app = FileBrowser(folder: folder, terminal: terminal)
    let stop = TerminalRunLoop.run(app.scheduler, app, terminal: terminal, signals: TerminationSignals()) { app.done }
    if case .signal(let number) = stop { exit(128 + number) }
} catch {
    FileHandle.standardError.write(Data("file-browser: \(error)\n".utf8))
    exit(1)
}

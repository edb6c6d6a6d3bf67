import CoreKit
import Foundation
import ImagePipeline

/// A photo folder read in two steps, so that twenty thousand photos start as fast as
/// twenty: the folder is listed and its files sniffed in name order only until the first
/// screen's photos are known; that catalogue is shown at once, and a background thread
/// sniffs the rest, posting a bigger catalogue every `batch` files (the seeds' pattern:
/// the data source applies each from the background). The last one posted has
/// ``Catalogue/isComplete`` set.
///
/// Sniffing is a few system calls per file: at low priority (nice 10), it never competes
/// with the frame loop for a core.
public final class PhotoFolderScan: Sendable {
    /// Each a catalogue with more photos than the one before, in name order.
    public let updates: Mailbox<Catalogue>
    private let stopped = Lock(false)

    /// The catalogue of the first `firstScreen` photos (or the whole folder, when that is
    /// all there is), and the scan that goes on with the rest (nil when nothing is left).
    /// Throws when the folder cannot be listed, or holds no photo at all.
    public static func start(_ folder: URL, firstScreen: Int = 64, batch: Int = 500,
                             wake: WakeSignal? = nil) throws(CatalogueError) -> (catalogue: Catalogue, scan: PhotoFolderScan?) {
        let names = try Catalogue.fileNames(in: folder)
        var catalogue = try Catalogue(emptyPhotoFolder: folder)
        var next = 0
        // The first screen's photos, or at least one (an empty folder is an error, not a
        // blank grid) once four screens' worth of files have been looked at.
        while next < names.count && catalogue.baseCount < firstScreen && (catalogue.baseCount == 0 || next < 4 * firstScreen) {
            let end = min(names.count, next + max(1, firstScreen - catalogue.baseCount))
            catalogue.addPhotos(named: names[next..<end], in: folder)
            next = end
        }
        guard next < names.count else {
            guard catalogue.baseCount > 0 else { throw .noPhotos(path: folder.path, skipped: catalogue.skippedFiles.count) }
            return (catalogue, nil)
        }
        catalogue.isComplete = false
        let scan = PhotoFolderScan(wake: wake)
        scan.sniff(names[next...], after: catalogue, in: folder, batch: batch)
        return (catalogue, scan)
    }

    private init(wake: WakeSignal?) { updates = Mailbox(wake: wake) }

    private func sniff(_ names: ArraySlice<String>, after first: Catalogue, in folder: URL, batch: Int) {
        let thread = Thread { [self] in
            _ = WorkerPriority.low.applyToCurrentThread()
            var catalogue = first
            var start = names.startIndex
            while start < names.endIndex {
                if stopped.withLock({ $0 }) { return }
                let end = min(names.endIndex, start + batch)
                catalogue.addPhotos(named: names[start..<end], in: folder)
                start = end
                catalogue.isComplete = start == names.endIndex
                updates.post(catalogue)
            }
        }
        thread.name = "photo folder scan"
        thread.start()
    }

    /// Stops after the batch being sniffed (the app is quitting).
    public func stop() { stopped.withLock { $0 = true } }

    deinit { stop() }
}

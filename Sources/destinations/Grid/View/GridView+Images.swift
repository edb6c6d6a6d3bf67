import CellCanvas
import CollectionKit
import CoreKit
import FeedFormat
import ImagePipeline
import RenderLoop
import TerminalFront

/// The images' way from the store to the terminal: finished thumbnails delivered within
/// the frame's budget, their escape sequences and pixel strips handed to the terminal, and
/// what the grid asks again when the network comes back.
extension GridView {
    /// Delivers up to `limit` finished thumbnails (each reconfigures a cell) and, of kitty
    /// images, at most what `terminal` takes in a frame at `hertz`; returns whether any arrived.
    func deliverImages(limit: Int, to terminal: any TerminalBackend, hertz: Double) -> Bool {
        let transmissions = terminal.optionalBytesPerFrame(hertz: hertz, ceiling: AssetStore.transmissionBytesPerSecond)
        let delivered = store.deliverCompletions(limit: limit, transmissionBytes: transmissions) > 0
        if store.transmissionsHeldBack { terminal.noteOptionalBytesHeldBack() }
        return delivered
    }

    /// Images the cells about to be shown name go to the terminal before the cells do.
    func handImages(to terminal: any TerminalBackend) {
        let shown = store.output.keepsImagesByID ? shownGraphicIDs : []
        let escapes = store.takeTerminalOutput(keeping: shown)
        if !escapes.isEmpty { terminal.sendGraphics(escapes) }
        guard store.output.drawsPixelCells else { return }
        let (defined, forgotten) = store.takePixelImageChanges(keeping: shown)
        if !defined.isEmpty || !forgotten.isEmpty { terminal.updatePixelImages(defined: defined, forgotten: forgotten) }
    }

    /// The kitty images the live cells and the detail view show (their deletion waits).
    var shownGraphicIDs: Set<UInt32> {
        var ids = Set<UInt32>()
        collection.forEachLiveCell { cell in
            if let id = (cell as? PostCell)?.image?.graphicID { ids.insert(id) }
        }
        if let id = detail?.image?.graphicID { ids.insert(id) }
        return ids
    }

    /// Photos whose fetch was interrupted (a 5xx, a timeout) and whose backoff is over are
    /// asked for again: the shown cells and the detail view that show one are configured
    /// anew, which drops the "will retry" mark and requests the photo; cells off screen ask
    /// when they are next configured. Returns whether anything shown changed.
    func retryInterruptedImages(now: Duration) -> Bool {
        let keys = store.retryInterrupted(now: now)
        guard !keys.isEmpty else { return false }
        let retried = Set(keys)
        let items = collection.liveItems.filter { retried.contains(thumbnailKey(for: $0)) }
        if !items.isEmpty { posts.source.reconfigureItems(items) }
        var detailRetried = false
        if let detail, retried.contains(detail.imageKey) {
            loadDetailImage(detail)
            detailRetried = true
        }
        return !items.isEmpty || detailRetried
    }

    /// The network is back: the photos that were unavailable are asked for again (the
    /// cells shown now at once, the others when they are next configured).
    func askAgainForUnavailable() {
        if store.forgetUnavailable() > 0 { posts.source.reconfigureItems(collection.liveItems) }
    }

    /// A feed's page arrived: its BlurHash placeholders join the store.
    func addPlaceholders(_ placeholders: [String: Blurhash.Grid]) {
        for (url, grid) in placeholders { store.addPlaceholder(columns: grid.width, rows: grid.height, rgb: grid.rgb, forURL: url) }
    }

    /// The prefetch distance follows the scroll's speed and the network's measured time to
    /// image (before the first image: Texture's fixed 2.5 screens), eased as the grid moves.
    func tunePreload(timeToImage: Duration, now: Duration) {
        let target = RangeTuning.preloadAhead(speed: collection.physics.velocity, timeToImage: timeToImage,
                                              viewportRows: collection.viewport.height)
        let offset = collection.physics.offset
        if let last = preloadEasing, collection.viewport.height > 0 {
            // Screens advanced in the direction the range leads (last frame's motion).
            let moved = (offset - last.offset) / Double(collection.viewport.height)
            let advanced = last.direction == 0 ? abs(moved) : moved * Double(last.direction)
            collection.ranges.preloadLeading = RangeTuning.easedPreloadAhead(previous: collection.ranges.preloadLeading, target: target,
                                                                             advancedScreens: advanced, elapsed: now - last.at)
        } else {
            collection.ranges.preloadLeading = target
        }
        let direction = preloadEasing.map { offset > $0.offset ? 1 : offset < $0.offset ? -1 : $0.direction } ?? 0
        preloadEasing = (offset, now, direction)
    }

    /// Gives back what was freed since the grid last went quiet: the data source's big
    /// snapshots (D-056) and what the image workers freed since they last delivered (their
    /// arenas keep it otherwise). For a frame loop about to wait, never inside a frame.
    func returnFreedMemory() {
        posts.source.returnFreedMemoryIfWanted()
        if store.takeMemoryToReturn() { MemoryReturn.toTheSystem() }
    }
}

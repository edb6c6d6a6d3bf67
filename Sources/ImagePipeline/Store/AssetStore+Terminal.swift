import CellCanvas

/// What the store hands the terminal and the presenter besides cells: kitty transmissions
/// and deletions, and the pictures the presenter draws, each deleted once it leaves the
/// cache and no cell shows it.
extension AssetStore {
    /// What waits for the terminal and the presenter until the frame takes it.
    struct TerminalChanges {
        /// Escape sequences for the terminal that are not cells, in order (kitty transmissions
        /// of images about to be shown, deletions of images that left the cache).
        var escapes: [UInt8] = []
        /// Images (kitty, or strip pictures) that left the cache, to be deleted once no cell
        /// shows them (a cell keeps its image after the cache let it go).
        var imagesToDelete = Set<UInt32>()
        /// Pictures the presenter draws (sixel, iTerm2, 24-bit symbols) delivered since the last
        /// ``AssetStore/takePixelImageChanges(keeping:)``, for it to keep until they leave the cache.
        var pixelImagesDefined: [PixelImage] = []
    }

    /// Caches `image`; kitty images and strip pictures that leave the cache are deleted from
    /// the terminal or the presenter too, so neither holds more images than the cache does.
    func cacheAndDeleteEvicted(_ image: CellImage, for key: PreparedImageKey) {
        for gone in cache.insert(image, for: key) {
            if let id = gone.graphicID { terminal.imagesToDelete.insert(id) }
        }
    }

    /// The pictures delivered since the last call (the presenter keeps them to draw their
    /// cells), and the ids of those that left the cache and are not in `shown` (the
    /// presenter forgets them; the others wait, as kitty deletions do).
    public func takePixelImageChanges(keeping shown: Set<UInt32> = []) -> (defined: [PixelImage], forgotten: [UInt32]) {
        var forgotten: [UInt32] = []
        if output.drawsPixelCells, !terminal.imagesToDelete.isEmpty {
            for id in terminal.imagesToDelete where !shown.contains(id) { forgotten.append(id) }
            terminal.imagesToDelete.subtract(forgotten)
            // Placed kitty images leave the terminal too, once the presenter has forgotten them
            // (with the next terminal output); the other protocols' deletion is nothing.
            let graphics = output.graphics
            for id in forgotten { terminal.escapes += graphics.deletion(of: id) }
        }
        defer { terminal.pixelImagesDefined.removeAll(keepingCapacity: true) }
        return (terminal.pixelImagesDefined, forgotten)
    }

    /// The escape sequences for the terminal since the last call: kitty image
    /// transmissions, then deletions of the images that left the cache and are not in
    /// `shown` (the ids the cells still show; theirs wait). The frame writes them before
    /// its cells.
    public func takeTerminalOutput(keeping shown: Set<UInt32> = []) -> [UInt8] {
        // Images the terminal keeps and no presenter draws (kitty's placeholders) are
        // deleted here; those the presenter draws, once it has forgotten them (above).
        if output.isKitty, !output.drawsPixelCells, !terminal.imagesToDelete.isEmpty {
            let graphics = output.graphics
            for id in terminal.imagesToDelete where !shown.contains(id) {
                terminal.escapes += graphics.deletion(of: id)
                terminal.imagesToDelete.remove(id)
            }
        }
        defer { terminal.escapes.removeAll(keepingCapacity: true) }
        return terminal.escapes
    }
}

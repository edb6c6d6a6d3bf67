import CellCanvas
import CollectionKit
import DiffableData
import ImagePipeline

/// Cells and thumbnails: a cell is configured from the catalogue, the model and the
/// store; its thumbnail is requested by data prefetching and when it shows a placeholder,
/// and arrives by `reconfigureItems`.
extension GridView: CollectionViewPrefetching, CollectionViewDelegate {
    /// One thumbnail size for every column (the narrowest's): an item that moves to a column
    /// one cell wider keeps its prepared thumbnail instead of needing another.
    func thumbnailKey(for id: Int) -> PreparedImageKey {
        let size = PostCell.thumbnailSize(width: collection.layout.narrowestItemWidth)
        return PreparedImageKey(asset: posts.catalogue.post(id - 1).asset, columns: size.columns, rows: size.rows)
    }

    func configure(_ cell: PostCell, at path: ItemPath, id: Int) {
        let started = clock.now
        defer { configureCost.record(clock.now - started) }
        let post = posts.catalogue.post(id - 1)
        cell.title = post.title  // a hidden post's is its warning
        cell.region = post.region
        cell.likes = likes(of: id)
        cell.isLiked = isLiked(id)
        cell.theme = theme
        cell.marks = PostCell.Marks(post)
        if cellCost > .zero { clock.spin(for: cellCost) }
        let key = thumbnailKey(for: id)
        if post.isHidden {
            // Behind its warning: its BlurHash, and the thumbnail is neither fetched nor decoded.
            cell.image = store.placeholder(for: key)
            cell.isPlaceholder = true
            cell.assetPath = key.asset.path
            cell.failure = nil
            return
        }
        // `--images sync`: decoded at full size, here, while the frame waits (one a commit).
        let decodesHere = model.imageMode == .sync && syncDecodes.takeOne()
        let asset = decodesHere ? store.prepareOnThisThread(key) : store.asset(for: key)
        cell.image = asset.image
        cell.isPlaceholder = asset.isPlaceholder
        cell.assetPath = key.asset.path
        // Reconfigured cells keep their properties: a failure asked for again is cleared here.
        cell.failure = if case .failed(_, let error) = asset { error.shortLabel } else { nil }
        if case .placeholder = asset {
            if model.imageMode == .sync { syncDecodes.awaiting.insert(id) } else { requestThumbnail(id, key: key, at: path) }
        }
    }

    /// Starts preparing a post's thumbnail unless it is under way (the store keeps that
    /// record); the completion reconfigures the item, never a captured cell.
    private func requestThumbnail(_ id: Int, key: PreparedImageKey, at path: ItemPath) {
        guard !posts.catalogue.isHidden(ofPost: id - 1) else { return }  // asked for once revealed
        let frame = collection.layout.frame(for: path), top = Int(collection.physics.offset)
        let distance = abs(frame.y - top)
        let visible = frame.y + frame.height > top && frame.y < top + collection.viewport.height
        let source = posts.source
        store.downloadOnce(key, priority: visible ? RequestPriority.visible(distance: distance) : RequestPriority.prefetch(distance: distance)) { _ in
            source.reconfigureItems([id])  // O(1): no snapshot copy, no diff
        }
    }

    /// The post waiting for a sync decode nearest the top of the viewport (what a person
    /// looks at first), taken from the waiting; posts no longer shown are forgotten.
    func nearestAwaitingSyncDecode() -> Int? {
        var best: (id: Int, distance: Int)?
        for id in syncDecodes.awaiting {
            guard let path = posts.source.indexPath(for: id) else {
                syncDecodes.awaiting.remove(id)
                continue
            }
            let distance = abs(collection.layout.frame(for: path).y - Int(collection.physics.offset))
            if best.map({ distance < $0.distance }) ?? true { best = (id, distance) }
        }
        if let best { syncDecodes.awaiting.remove(best.id) }
        return best?.id
    }

    func prefetchItems(at indexPaths: [ItemPath]) {
        guard model.imageMode == .async else { return }
        for path in indexPaths {
            guard let id = posts.source.itemIdentifier(for: path) else { continue }
            let key = thumbnailKey(for: id)
            if case .placeholder = store.asset(for: key) { requestThumbnail(id, key: key, at: path) }
        }
    }

    /// A cell about to be shown that still shows a placeholder asks for its thumbnail again,
    /// at a visible cell's priority: a cell prepared ahead in idle time is not configured
    /// again when it appears, and its prefetch may have been cancelled since (it left the
    /// preload range), or dropped when it scrolled off (`didEndDisplaying`) and came back.
    /// A request still under way is only promoted (`downloadOnce` keeps one per key).
    func willDisplay(_ cell: CollectionViewCell, at indexPath: ItemPath) {
        guard model.imageMode == .async, let post = cell as? PostCell, post.isPlaceholder, post.failure == nil,
              let id = posts.source.itemIdentifier(for: indexPath) else { return }
        let key = thumbnailKey(for: id)
        if case .placeholder = store.asset(for: key) {
            requestThumbnail(id, key: key, at: indexPath)
        } else {
            posts.source.reconfigureItems([id])  // it arrived while the cell was hidden
        }
    }

    /// A cell scrolled off: its thumbnail request goes (UIKit's recipe), so that a fling's
    /// passed cells do not hold the queue with stale, high priorities; a person who turns
    /// back asks again, and a transfer nearly done finishes anyway (the loader's rule).
    func didEndDisplaying(_ cell: CollectionViewCell, at indexPath: ItemPath) {
        guard let id = posts.source.itemIdentifier(for: indexPath) else { return }
        store.cancelDownload(of: thumbnailKey(for: id))
    }

    func cancelPrefetching(at indexPaths: [ItemPath]) {
        for path in indexPaths {
            guard let id = posts.source.itemIdentifier(for: path) else { continue }
            store.cancelDownload(of: thumbnailKey(for: id))
        }
    }
}

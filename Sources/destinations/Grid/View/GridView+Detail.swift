import DestinationsModel
import ImagePipeline

/// The post open large: the view follows ``GridModel/detailID``; it never decides it.
extension GridView {
    /// Opens `id` large (the model opened it, and checked it is shown): its placeholder at
    /// once, the photo prepared off the main thread at that size and swapped in when it arrives.
    func openDetail(_ id: Int) {
        detail?.download?.cancel()
        let opened = DetailView(id: id, picture: 0, asset: Self.detailAsset(of: posts.catalogue.post(id - 1), picture: 0), area: collection.viewport)
        detail = opened
        loadDetailImage(opened)
    }

    /// The open post's picture `index` large (←/→), or the same again after it was hidden
    /// or revealed.
    func showPicture(_ index: Int) {
        guard let open = detail else { return }
        open.download?.cancel()
        let shown = DetailView(id: open.id, picture: index, asset: Self.detailAsset(of: posts.catalogue.post(open.id - 1), picture: index), area: open.area)
        detail = shown
        loadDetailImage(shown)
    }

    /// What the detail view opens for a post's picture: a feed's original, else the photo.
    static func detailAsset(of post: DestinationPost, picture: Int) -> AssetID {
        post.pictures.indices.contains(picture) ? AssetID(path: post.pictures[picture].url) : post.original ?? post.asset
    }

    func loadDetailImage(_ shown: DetailView) {
        shown.download?.cancel()
        let key = shown.imageKey
        // Hidden behind its warning: the placeholder, and nothing fetched or decoded.
        if posts.catalogue.isHidden(ofPost: shown.id - 1) {
            shown.show(store.placeholder(for: key), placeholder: true)
            shown.failure = nil
            return
        }
        let asset = store.asset(for: key)
        shown.show(asset.image, placeholder: asset.isPlaceholder)
        shown.failure = if case .failed(_, let error) = asset { error.shortLabel } else { nil }
        guard case .placeholder = asset else { return }
        shown.download = store.download(key, priority: RequestPriority.detail) { [weak shown] result in
            guard let shown, shown.imageKey == key else { return }
            switch result {
            case .success(let image): shown.show(image, placeholder: false)
            case .failure(let error): shown.failure = error.shortLabel
            }
        }
    }

    func closeDetail() {
        detail?.download?.cancel()
        detail = nil
    }

    /// Over a feed, the detail view's photo on its way: how far its transfer has come
    /// (`progress` answers for a URL).
    func noteDetailProgress(_ progress: (String) -> (received: Int, expected: Int?)?) {
        guard let detail else { return }
        detail.progress = detail.isPlaceholder ? progress(detail.imageKey.asset.path) : nil
    }
}

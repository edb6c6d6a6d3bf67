import ImagePipeline

/// The post open large: the view follows ``GridModel/detailID``; it never decides it.
extension GridView {
    /// Opens `id` large (the model opened it, and checked it is shown): its placeholder at
    /// once, the photo prepared off the main thread at that size and swapped in when it arrives.
    func openDetail(_ id: Int) {
        let post = posts.catalogue.post(id - 1)
        let opened = DetailView(id: id, asset: post.original ?? post.asset, area: collection.viewport)
        detail = opened
        loadDetailImage(opened)
    }

    func loadDetailImage(_ shown: DetailView) {
        shown.download?.cancel()
        let key = shown.imageKey
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

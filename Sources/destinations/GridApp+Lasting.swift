import DestinationsModel
import FeedClient
import SavedState

/// What lasts between runs, as the frame loop uses it (``PersonalState``): saved likes
/// shown at the start and as a feed's pages arrive, `L` kept and sent, rollbacks shown, the
/// place kept about once a second and gone back to at the start.
extension GridApp {
    /// Pages a feed is read to find the saved post before the search gives up (40 posts a page).
    static let placeSearchPages = 50

    /// The key a post's like and place are kept under: a feed's status id, else its number.
    func stateKey(of id: Int) -> String { screen.catalogue.statusID(ofPost: id - 1) ?? String(id) }

    /// The post a key names, if the catalogue has it.
    func post(forStateKey key: String) -> Int? {
        if feed != nil { return screen.catalogue.post(withStatusID: key).map { $0 + 1 } }
        guard let id = Int(key), id >= 1, id <= screen.postCount else { return nil }
        return id
    }

    /// At the start: saved likes (without a feed; a feed's come with its pages), and the
    /// saved place's filter and order; its post is selected once the grid shows it.
    func restoreSaved() {
        guard let personal else { return }
        if feed == nil {
            for (key, liked) in personal.savedLikes {
                if let id = post(forStateKey: key) { screen.state.setLiked(liked, id: id, favourited: false) }
            }
        }
        guard let place = personal.savedPlace else { return }
        let order = PostOrder(rawValue: place.sort) ?? .catalogue
        if place.filter != screen.state.filter || order != screen.state.sortOrder {
            screen.state.filter = place.filter
            screen.state.sortOrder = order
            screen.requery(animated: false)
        }
        placeToFind = place.post
        feed?.pagesToTheEnd = true  // a feed pages on until the post comes (findPlace)
    }

    /// A feed's posts that just arrived (`ids`): the person's saved word over the page's
    /// `favourited`, where it is newer (``PersonalState/word(on:pageFetchedAt:)``).
    func applySavedLikes(to ids: Range<Int>, pageFetchedAt: Int64?) {
        guard let personal else { return }
        for id in ids {
            guard let key = screen.catalogue.statusID(ofPost: id - 1), let liked = personal.word(on: key, pageFetchedAt: pageFetchedAt) else { continue }
            screen.state.setLiked(liked, id: id, favourited: screen.catalogue.isFavourited(ofPost: id - 1))
        }
    }

    /// `L`: kept (and sent over a feed).
    func recordLike(_ liked: Bool, id: Int) {
        personal?.record(liked, post: stateKey(of: id), title: screen.catalogue.post(id - 1).title)
    }

    /// Every frame: the outbox's rollbacks shown, the saved post selected once shown, the
    /// place kept when a second has passed.
    func drainPersonal(at time: Duration) {
        guard let personal else { return }
        let events = personal.takeEvents(at: time)
        if events.changed { somethingHappened = true }
        for (key, liked) in events.back {
            guard let id = post(forStateKey: key) else { continue }
            screen.state.setLiked(liked, id: id, favourited: screen.catalogue.isFavourited(ofPost: id - 1))
            screen.source.reconfigureItems([id])
            somethingHappened = true
        }
        if let key = placeToFind { findPlace(key, at: time) }
        if placeToFind == nil, time - placeKeptAt >= .seconds(1) {
            placeKeptAt = time
            personal.keep(currentPlace)
        }
    }

    /// The saved place is no longer sought: found, out of reach, or the person moved on first.
    func stopSeekingSavedPlace() {
        placeToFind = nil
        feed?.pagesToTheEnd = false
    }

    var currentPlace: StateStore.Place {
        StateStore.Place(post: stateKey(of: screen.state.selected), filter: screen.state.filter, sort: screen.state.sortOrder.rawValue)
    }

    /// Selects the saved post once the grid shows it; gives up when it cannot come (the
    /// whole list is shown without it, or a feed has been read far enough). A key that acts
    /// on the grid before then ends the search too (``GridEffect/actsOnTheShownGrid``).
    private func findPlace(_ key: String, at time: Duration) {
        if let id = post(forStateKey: key), screen.source.indexPath(for: id) != nil, !screen.isQuerying {
            stopSeekingSavedPlace()
            for effect in screen.state.select(id, in: screen.contents) { apply(effect, at: time) }
            somethingHappened = true
            return
        }
        if let feed {
            if feed.pager.hasEnded || feed.pager.pages >= Self.placeSearchPages { stopSeekingSavedPlace() }
        } else if screen.hasLoadedAll && !screen.isQuerying {
            stopSeekingSavedPlace()
        }
    }
}

import DestinationsModel
import FeedClient
import SavedState

/// What the world sent since the last frame: a folder's bigger catalogue and a feed's pages
/// go to the view's posts; the outbox's rollbacks, the saved place found or out of reach
/// and the feed's end are events for the model.
extension GridLoop {
    /// Pages a feed is read to find the saved post before the search gives up (40 posts a page).
    static let placeSearchPages = 50

    func drainSources(at time: Duration) {
        if let latest = sources.photoScan?.updates.drainIfAvailable()?.last {
            view.posts.replaceCatalogue(latest)
            view.requery(animated: false)
            flags.somethingHappened = true
        }
        if let feed = sources.feed { drainFeed(feed, at: time) }
        drainPersonal(at: time)
    }

    /// A feed's pages that arrived become posts (applied from the background, as any
    /// query is), and the next page is asked for when fewer than two screens remain below.
    private func drainFeed(_ feed: FeedSession, at time: Duration) {
        let failuresBefore = feed.failures
        let arrivals = feed.takeArrivals(now: time)
        if feed.failures != failuresBefore { flags.somethingHappened = true }  // the header says why
        if !arrivals.isEmpty {
            for arrival in arrivals {
                view.addPlaceholders(arrival.placeholders)
                applySavedLikes(to: view.posts.appendFeedPosts(arrival.page.posts), pageFetchedAt: arrival.fetchedAt)
            }
            view.requery(animated: false)
            flags.somethingHappened = true
        }
        if feed.probeIfOffline(now: time) {
            view.askAgainForUnavailable()
            flags.somethingHappened = true
        }
        if let timeToImage = feed.loader?.recentTimeToImage { view.tunePreload(timeToImage: timeToImage, now: time) }
        let toTheEnd = model.seeking.pagesToTheEnd
        guard model.filter.isEmpty || toTheEnd else { return }
        let ended = feed.pageIfNeeded(rowsBelow: view.rowsBelow, screenRows: view.screenRows, toTheEnd: toTheEnd, now: time)
        if ended && toTheEnd { send(.feedEnded, at: time) }
    }

    /// At the start: saved likes (without a feed; a feed's come with its pages), and the
    /// saved place's filter and order; its post is selected once the grid shows it.
    func restoreSaved() {
        guard let personal = sources.personal else { return }
        let isFeed = sources.feed != nil
        if !isFeed {
            for (key, liked) in personal.savedLikes {
                if let id = view.posts.post(forStateKey: key, isFeed: false) { send(.likeWord(id: id, liked: liked, favourited: false), at: clock.now) }
            }
        }
        guard let place = personal.savedPlace else { return }
        send(.savedPlace(post: place.post, filter: place.filter, order: PostOrder(rawValue: place.sort) ?? .catalogue), at: clock.now)
    }

    /// A feed's posts that just arrived (`ids`): the person's saved word over the page's
    /// `favourited`, where it is newer (``PersonalState/word(on:pageFetchedAt:)``).
    func applySavedLikes(to ids: Range<Int>, pageFetchedAt: Int64?) {
        guard let personal = sources.personal else { return }
        let catalogue = view.catalogue
        for id in ids {
            guard let key = catalogue.statusID(ofPost: id - 1), let liked = personal.word(on: key, pageFetchedAt: pageFetchedAt) else { continue }
            send(.likeWord(id: id, liked: liked, favourited: catalogue.isFavourited(ofPost: id - 1)), at: clock.now)
        }
    }

    /// Every frame: the outbox's rollbacks shown, the saved post selected once shown, the
    /// place kept when a second has passed.
    private func drainPersonal(at time: Duration) {
        guard let personal = sources.personal else { return }
        let events = personal.takeEvents(at: time)
        if events.changed { flags.somethingHappened = true }
        for (key, liked) in events.back {
            guard let id = view.posts.post(forStateKey: key, isFeed: sources.feed != nil) else { continue }
            send(.likeWord(id: id, liked: liked, favourited: view.catalogue.isFavourited(ofPost: id - 1)), at: time)
            flags.somethingHappened = true
        }
        if let key = model.seeking.place { findPlace(key, at: time) }
        if model.seeking.place == nil { personal.keepNow(currentPlace, at: time) }
    }

    var currentPlace: StateStore.Place {
        StateStore.Place(post: view.posts.stateKey(of: model.selected), filter: model.filter, sort: model.sortOrder.rawValue)
    }

    /// Selects the saved post once the grid shows it; gives up when it cannot come (the
    /// whole list is shown without it, or a feed has been read far enough). A key that acts
    /// on the grid before then ends the search too (``GridEffect/actsOnTheShownGrid``).
    private func findPlace(_ key: String, at time: Duration) {
        let posts = view.posts
        if let id = posts.post(forStateKey: key, isFeed: sources.feed != nil), posts.isShown(id), !posts.isQuerying {
            send(.placeFound(id: id), at: time)
            flags.somethingHappened = true
            return
        }
        if let feed = sources.feed {
            if feed.pager.hasEnded || feed.pager.pages >= Self.placeSearchPages { send(.placeOutOfReach, at: time) }
        } else if posts.hasLoadedAll && !posts.isQuerying {
            send(.placeOutOfReach, at: time)
        }
    }
}

import DestinationsModel
import RenderLoop
import TerminalFront

/// Everything that may change the app's state, as a value: what the person typed, and
/// what the world answered. The loop turns each into ``GridModel/update(_:in:)``; nothing
/// else writes the model (Bubble Tea's `Msg`).
enum GridEvent: Equatable {
    /// A key, a wheel notch or a resize.
    case key(Key)
    /// The posts shown changed (a query's result, more posts read): the selection must be
    /// on one of them.
    case postsShownChanged
    /// The person's word on a post, from elsewhere than a key: a saved like at the start or
    /// over an arriving page, a like the server refused (rolled back). `favourited`: what
    /// the catalogue says.
    case likeWord(id: Int, liked: Bool, favourited: Bool)
    /// The place kept from the last run: its filter and order now; its post (its state
    /// key) selected once the grid shows it.
    case savedPlace(post: String, filter: String, order: PostOrder)
    /// The saved place's post is shown: select it, and stop seeking.
    case placeFound(id: Int)
    /// The saved place's post cannot come (the list is whole without it, or the feed was
    /// read far enough).
    case placeOutOfReach
    /// The feed has no more pages: paging to the end is over.
    case feedEnded
}

/// What an update asks of the view, the feed or the loop, beyond the model, which has
/// already changed (Bubble Tea's `Cmd`). Interpreted in one place (`GridLoop+Effects`).
enum GridEffect: Equatable {
    /// The terminal's size or the HUD changed: lay the grid out again.
    case relayout
    /// Paint the whole terminal again (Ctrl-L: after another program wrote over it).
    case repaint
    /// The filter or the order changed: compute the posts to show again.
    case requery
    /// The same, without the animation (a restored place: nothing moved on screen).
    case requeryQuietly
    /// The selection moved to the post at `index` of the order shown: it is scrolled into
    /// view (its border is drawn from the model at the commit; nothing is configured
    /// again). The index comes along so that the view does not look the post up again.
    case selectionMoved(from: Int, to: Int, index: Int)
    case fling(Double)
    case scroll(rows: Int)
    case wheel(rows: Int)
    case page(Int)
    case scrollToTop
    /// To the end; over a feed, a page refused for good is asked for once more (by the
    /// person, never by the loop).
    case scrollToBottom
    /// Configure these posts' cells again (a like changes the count they show).
    case reconfigure([Int])
    /// The person liked (true) or unliked post `id`: keep it, and send it to a feed's server.
    case liked(Int, Bool)
    case openDetail(Int)
    case closeDetail
    /// The open post's picture `index` is shown large.
    case showPicture(Int)
    /// Post `id` is now hidden behind its warning (true) or shown as it is (false).
    case hidden(Int, Bool)
    /// Every warned post is now shown as it is (true) or hidden (`X`); the loop keeps the choice.
    case sensitiveShown(Bool)
    /// Open post `id`'s web page in the person's browser (`o`), or say where to paste it.
    case openPage(Int)
    /// Prefetching in idle frame time on or off.
    case idleWork(Bool)
    case refreshRate(RefreshRate)

    /// Whether the person acted on the grid as shown: moved, scrolled, ordered, filtered,
    /// opened or liked a post. The saved place is then no longer gone back to (the grid
    /// would jump away from what they just did).
    var actsOnTheShownGrid: Bool {
        switch self {
        case .requery, .selectionMoved, .fling, .scroll, .wheel, .page, .scrollToTop, .scrollToBottom, .liked, .openDetail: true
        case .relayout, .repaint, .requeryQuietly, .reconfigure, .closeDetail, .showPicture, .hidden, .sensitiveShown, .openPage, .idleWork,
             .refreshRate: false
        }
    }
}

import RenderLoop

/// The one interpreter of effects: what an update asked of the view, the terminal, the
/// scheduler, the feed or what lasts.
extension GridLoop {
    func perform(_ effect: GridEffect, at time: Duration) {
        if view.perform(effect, at: time) {
            // The feed's part of `G`: a page refused for good is asked for once more.
            if case .scrollToBottom = effect { sources.feed?.askAgain() }
            return
        }
        switch effect {
        case .relayout: flags.needsRelayout = true
        case .repaint: terminal.invalidate()
        case .liked(let id, let liked):
            sources.personal?.record(liked, post: view.posts.stateKey(of: id), title: view.catalogue.post(id - 1).title)
        case .idleWork(let on): scheduler.isIdleWorkEnabled = on
        case .refreshRate(let rate): scheduler.changeRefreshRate(to: rate)
        default: assertionFailure("\(effect) is the view's")
        }
    }
}

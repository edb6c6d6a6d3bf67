import Foundation
import RenderLoop

/// The one interpreter of effects: what an update asked of the terminal, the scheduler,
/// the feed or what lasts is done here; everything else is the view's (`GridView.perform`).
extension GridLoop {
    func perform(_ effect: GridEffect, at time: Duration) {
        switch effect {
        case .relayout: flags.needsRelayout = true
        case .repaint: terminal.invalidate()
        case .liked(let id, let liked):
            sources.personal?.record(liked, post: view.posts.stateKey(of: id), title: view.catalogue.post(id - 1).title)
        case .openPage(let id):
            let result = PageOpener.open(view.catalogue.post(id - 1).url, environment: ProcessInfo.processInfo.environment)
            view.detail?.note = result
        case .sensitiveShown(let shown):
            sources.personal?.keep(shown, for: .showSensitive)
            view.perform(effect, at: time)
        case .idleWork(let on): scheduler.isIdleWorkEnabled = on
        case .refreshRate(let rate): scheduler.changeRefreshRate(to: rate)
        case .scrollToBottom:
            view.perform(effect, at: time)
            // The feed's part of `G`: a page refused for good is asked for once more.
            sources.feed?.askAgain()
        default: view.perform(effect, at: time)
        }
    }
}

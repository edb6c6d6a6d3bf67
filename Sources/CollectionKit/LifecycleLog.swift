import DiffableData

/// The calls a collection view makes, in order, like the iOS 10 logs of seed 003.
public enum LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    /// The cell provider ran for the item at a path: in a commit, or in idle time (`prefetched`).
    case cellForItem(ItemPath, prefetched: Bool)
    /// A cell left its pool for a new item.
    case prepareForReuse
    /// A cell came on screen.
    case willDisplay(ItemPath)
    /// A cell left the screen.
    case didEndDisplaying(ItemPath)
    /// Data prefetch asked for these paths, nearest first.
    case prefetch([ItemPath])
    /// Data prefetch was cancelled for these paths (they left the preload range).
    case cancelPrefetching([ItemPath])

    public var description: String {
        switch self {
        case let .cellForItem(path, prefetched): "cellForItemAt \(Self.short(path))\(prefetched ? " (idle)" : "")"
        case .prepareForReuse: "prepareForReuse"
        case let .willDisplay(path): "willDisplay \(Self.short(path))"
        case let .didEndDisplaying(path): "didEndDisplaying \(Self.short(path))"
        case let .prefetch(paths): "prefetch [\(paths.map(Self.short).joined(separator: ", "))]"
        case let .cancelPrefetching(paths): "cancelPrefetch [\(paths.map(Self.short).joined(separator: ", "))]"
        }
    }

    static func short(_ path: ItemPath) -> String {
        path.section == 0 ? "\(path.item)" : "\(path.section).\(path.item)"
    }
}

/// Receives display events (UIKit's `willDisplay` / `didEndDisplaying`).
public protocol CollectionViewDelegate: AnyObject {
    /// `cell` is about to be drawn on screen for the item at `indexPath` (it may have been
    /// prepared frames ago, in idle time): start what only a visible cell needs.
    func willDisplay(_ cell: CollectionViewCell, at indexPath: ItemPath)
    /// `cell` left the screen; it waits, prepared, in the retained range, or goes back to
    /// its pool: stop what only a visible cell needs (a download at display priority).
    func didEndDisplaying(_ cell: CollectionViewCell, at indexPath: ItemPath)
}

/// Data prefetching: start loading what will soon be needed, cancel what no longer will.
/// Calls come in batches, nearest the viewport first.
public protocol CollectionViewPrefetching: AnyObject {
    /// These items entered the preload range (nearest the viewport first): start loading
    /// their data. Nothing is shown yet; return at once and finish off the main thread.
    func prefetchItems(at indexPaths: [ItemPath])
    /// These items left the preload range before they were shown (the scroll turned back):
    /// cancel what ``prefetchItems(at:)`` started for them.
    func cancelPrefetching(at indexPaths: [ItemPath])
}

/// The ranges around the viewport, in screens, oriented by the scroll direction.
/// Defaults are Texture's published ones.
public struct RangeTuning: Sendable, Equatable {
    /// Cells configured ahead in idle frame time (at least the next row).
    public var preparedLeading = 1.0
    /// Cells kept behind after they scroll off, so a quick reversal costs nothing.
    public var retainedTrailing = 0.5
    /// Data prefetch ahead.
    public var preloadLeading = 2.5
    /// Data prefetch behind (kept loaded for a reversal).
    public var preloadTrailing = 1.5
    /// Before the first scroll: preload this far ahead only, prepare only the next row.
    public var initialPreloadLeading = 1.5

    /// Texture's defaults.
    public init() {}

    /// The data prefetch distance ahead, in screens, for a scroll at `speed` rows a second
    /// when an image takes `timeToImage` to arrive: one screen, plus the rows the scroll
    /// covers while a request is under way, within 1 to `maximum` screens. A fling looks
    /// further ahead, a slow scroll less (every anchor uses a fixed distance; Texture's is
    /// 2.5 screens whatever the speed).
    public static func preloadAhead(speed: Double, timeToImage: Duration, viewportRows: Int, maximum: Double = 8) -> Double {
        guard viewportRows > 0 else { return 1 }
        let seconds = Double(timeToImage.components.seconds) + Double(timeToImage.components.attoseconds) / 1e18
        let rows = abs(speed) * max(0, seconds)
        return min(maximum, max(1, 1 + rows / Double(viewportRows)))
    }

    /// This frame's distance ahead, from last frame's `previous` toward `target`: it grows
    /// at once, but shrinks no faster than the scroll advanced since (`advancedScreens`, in
    /// the leading direction) plus `decayPerSecond` screens a second. So the range's far
    /// edge does not move back toward the viewport while a fling slows down: following
    /// ``preloadAhead(speed:timeToImage:viewportRows:maximum:)`` frame by frame, it did,
    /// and requests at the edge were cancelled in flight and asked again a frame later (the
    /// server sent those photos twice). At rest it settles back to `target` within a second
    /// (the most it can be, 8 screens, at 8 a second): what the scroll no longer heads for
    /// is cancelled, mostly before it started. A scroll that turned (`advancedScreens` < 0) takes `target`: the other side leads.
    public static func easedPreloadAhead(previous: Double, target: Double, advancedScreens: Double, elapsed: Duration, decayPerSecond: Double = 8) -> Double {
        guard advancedScreens >= 0 else { return target }
        let seconds = max(0, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        return max(target, previous - advancedScreens - decayPerSecond * seconds)
    }
}

import DiffableData

/// The calls a collection view makes, in order, like the iOS 10 logs of seed 003.
public enum LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    case cellForItem(ItemPath, prefetched: Bool)
    case prepareForReuse
    case willDisplay(ItemPath)
    case didEndDisplaying(ItemPath)
    case prefetch([ItemPath])
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
    func willDisplay(_ cell: CollectionViewCell, at indexPath: ItemPath)
    func didEndDisplaying(_ cell: CollectionViewCell, at indexPath: ItemPath)
}

/// Data prefetching: start loading what will soon be needed, cancel what no longer will.
/// Calls come in batches, nearest the viewport first.
public protocol CollectionViewPrefetching: AnyObject {
    func prefetchItems(at indexPaths: [ItemPath])
    func cancelPrefetching(at indexPaths: [ItemPath])
}

/// The ranges around the viewport, in screens, oriented by the scroll direction.
/// Defaults are Texture's published ones.
public struct RangeTuning: Sendable, Equatable {
    /// Cells configured ahead in idle frame time (at least the next row).
    public var preparedLeading = 1.0
    /// Cells kept behind after they scroll off, so a quick reversal costs nothing.
    public var retainedTrailing = 0.5
    /// Data prefetch ahead and behind.
    public var preloadLeading = 2.5
    public var preloadTrailing = 1.5
    /// Before the first scroll: preload this far ahead only, prepare only the next row.
    public var initialPreloadLeading = 1.5

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
}

import CoreKit

/// What a prepared image is cached under: the asset and the size it was prepared for.
public struct PreparedImageKey: Hashable, Sendable {
    /// The image.
    public let asset: AssetID
    /// Columns of cells it was prepared for.
    public let columns: Int
    /// Rows of cells it was prepared for.
    public let rows: Int

    /// The key of `asset` prepared for `columns` × `rows` cells.
    public init(asset: AssetID, columns: Int, rows: Int) {
        self.asset = asset
        self.columns = columns
        self.rows = rows
    }
}

/// Identifies one image: a photo file and the window of it a post shows.
public struct AssetID: Hashable, Sendable, CustomStringConvertible {
    /// The photo file.
    public let path: String
    /// The part of it shown (``CropWindow/whole`` for all of it).
    public let window: CropWindow

    /// The `window` of the photo at `path`.
    public init(path: String, window: CropWindow = .whole) {
        self.path = path
        self.window = window
    }

    public var description: String { window == .whole ? path : "\(path) \(window)" }
}

/// Prepared images in memory, limited by their total byte cost, least recently used out
/// first. Thread-safe: workers insert, the main thread looks up. Never written to disk
/// (the originals stay on disk; the seeds' advice).
public final class PreparedImageCache: Sendable {
    /// What the cache did so far, and what it holds.
    public struct Counters: Sendable, Hashable {
        /// Lookups answered.
        public var hits = 0
        /// Lookups not answered.
        public var misses = 0
        /// Images let go to stay under the limit.
        public var evictions = 0
        /// Bytes held now.
        public var bytes = 0
        /// Images held now.
        public var count = 0
    }

    private struct Entry: Sendable {
        var image: CellImage
        var older: PreparedImageKey?
        var newer: PreparedImageKey?
    }

    private struct State: Sendable {
        var entries: [PreparedImageKey: Entry] = [:]
        var newest: PreparedImageKey?
        var oldest: PreparedImageKey?
        var counters = Counters()
    }

    /// The most bytes of prepared images kept.
    public let limit: Int
    private let state = Lock(State())

    /// - Parameter limit: total bytes of prepared images kept (e.g. 64 MB ≈ 11,000 thumbnails).
    public init(limit: Int) {
        precondition(limit > 0, "PreparedImageCache needs a positive byte limit, got \(limit)")
        self.limit = limit
    }

    /// The image, marking it most recently used; counts a hit or a miss.
    /// - Complexity: O(1).
    public func image(for key: PreparedImageKey) -> CellImage? {
        state.withLock { state in
            guard let entry = state.entries[key] else {
                state.counters.misses += 1
                return nil
            }
            state.counters.hits += 1
            Self.unlink(key, in: &state)
            Self.linkNewest(key, entry.image, in: &state)
            return entry.image
        }
    }

    /// Adds (or replaces) an image, then evicts the least recently used until the total
    /// fits. An image larger than the whole limit is not kept.
    /// - Complexity: O(1) amortised (O(evicted)).
    /// Returns the images that left the cache (replaced or evicted): kitty images among
    /// them are deleted from the terminal too.
    @discardableResult
    public func insert(_ image: CellImage, for key: PreparedImageKey) -> [CellImage] {
        state.withLock { state in
            var gone: [CellImage] = []
            if let old = Self.remove(key, in: &state) { gone.append(old) }
            guard image.byteCost <= limit else { return gone + [image] }
            Self.linkNewest(key, image, in: &state)
            state.counters.bytes += image.byteCost
            state.counters.count += 1
            while state.counters.bytes > limit, let victim = state.oldest {
                if let evicted = Self.remove(victim, in: &state) { gone.append(evicted) }
                state.counters.evictions += 1
            }
            return gone
        }
    }

    /// The counters now (takes the lock briefly).
    public var counters: Counters { state.withLock { $0.counters } }

    /// Keys from most to least recently used (for tests and the HUD).
    public var keysByRecency: [PreparedImageKey] {
        state.withLock { state in
            var keys: [PreparedImageKey] = []
            var cursor = state.newest
            while let key = cursor {
                keys.append(key)
                cursor = state.entries[key]?.older
            }
            return keys
        }
    }

    private static func linkNewest(_ key: PreparedImageKey, _ image: CellImage, in state: inout State) {
        state.entries[key] = Entry(image: image, older: state.newest, newer: nil)
        if let previous = state.newest { state.entries[previous]?.newer = key }
        state.newest = key
        if state.oldest == nil { state.oldest = key }
    }

    private static func unlink(_ key: PreparedImageKey, in state: inout State) {
        guard let entry = state.entries[key] else { return }
        if let older = entry.older { state.entries[older]?.newer = entry.newer } else { state.oldest = entry.newer }
        if let newer = entry.newer { state.entries[newer]?.older = entry.older } else { state.newest = entry.older }
    }

    @discardableResult
    private static func remove(_ key: PreparedImageKey, in state: inout State) -> CellImage? {
        guard let entry = state.entries[key] else { return nil }
        unlink(key, in: &state)
        state.entries[key] = nil
        state.counters.bytes -= entry.image.byteCost
        state.counters.count -= 1
        return entry.image
    }
}

/// A thumbnail's palette for ``SixelEncoder``: Heckbert's median cut over the picture's
/// colours (grouped in a 5-5-5 histogram), then one round of k-means (each entry moved to
/// the mean of the colours nearest it).
///
/// Why not the most popular histogram cells (what the encoder used until issue 46): a photo's
/// sky or wall fills the most popular cells with near-equal shades, and the colours of
/// everything small in it go to the nearest of those. Measured by `destinations-bench
/// sixel` over the bundled photos, libsixel's median cut at 16 colours had a lower error than
/// the popular cells at 128 (11.2 against 12.5, D-077). Median cut spends the entries where
/// the colours spread, weighted by how many pixels have them.
enum SixelPalette {
    /// One histogram cell: how many pixels fall in it and the sums of their channels (in 64
    /// bits: a cell of a large picture of one colour passes 32).
    struct Bin {
        var population: Int64
        var r: Int64, g: Int64, b: Int64

        /// The mean colour of its pixels.
        var mean: (r: Int32, g: Int32, b: Int32) {
            (Int32((r + population / 2) / population), Int32((g + population / 2) / population), Int32((b + population / 2) / population))
        }
    }

    /// At most `colors` entries for the pixels in `bins` (every bin has pixels).
    /// - Complexity: O(bins × log(bins) × log(colors)) for the cut, O(bins × colors) for the
    ///   k-means round.
    static func make(_ bins: [Bin], colors: Int) -> [(r: UInt8, g: UInt8, b: UInt8)] {
        guard !bins.isEmpty else { return [(0, 0, 0)] }
        var boxes = [Box(bins: bins)]
        while boxes.count < colors {
            // The box whose pixels spread most along one axis (range weighted as the
            // distance is: green 4, red 3, blue 2), times its pixels: split it at its median.
            guard let index = boxes.indices.max(by: { boxes[$0].priority < boxes[$1].priority }),
                  boxes[index].priority > 0 else { break }
            let (low, high) = boxes[index].split()
            boxes[index] = low
            boxes.append(high)
        }
        var entries = boxes.map(\.mean)
        refine(&entries, bins: bins)
        return entries.map { (UInt8(clamping: $0.r), UInt8(clamping: $0.g), UInt8(clamping: $0.b)) }
    }

    /// One k-means round: each bin to its nearest entry, each entry to the mean of its bins
    /// (an entry no bin chose stays where it is).
    static func refine(_ entries: inout [(r: Int32, g: Int32, b: Int32)], bins: [Bin]) {
        var sums = [(n: Int64, r: Int64, g: Int64, b: Int64)](repeating: (0, 0, 0, 0), count: entries.count)
        for bin in bins {
            let mean = bin.mean
            var best = 0, bestDistance = Int32.max
            for (k, entry) in entries.enumerated() {
                let dr = mean.r &- entry.r, dg = mean.g &- entry.g, db = mean.b &- entry.b
                let distance = 3 &* dr &* dr &+ 4 &* dg &* dg &+ 2 &* db &* db
                if distance < bestDistance { (best, bestDistance) = (k, distance) }
            }
            sums[best].n += bin.population
            sums[best].r += bin.r
            sums[best].g += bin.g
            sums[best].b += bin.b
        }
        for (k, sum) in sums.enumerated() where sum.n > 0 {
            entries[k] = (Int32((sum.r + sum.n / 2) / sum.n), Int32((sum.g + sum.n / 2) / sum.n), Int32((sum.b + sum.n / 2) / sum.n))
        }
    }

    /// Bins with their extent along each axis.
    struct Box {
        var bins: [Bin]
        /// The widest weighted axis (0 red, 1 green, 2 blue) and the box's split priority.
        private(set) var axis = 0
        private(set) var priority: Int64 = 0

        init(bins: [Bin]) {
            self.bins = bins
            guard bins.count > 1 else { return }
            var low = (Int32.max, Int32.max, Int32.max), high = (Int32.min, Int32.min, Int32.min)
            var pixels: Int64 = 0
            for bin in bins {
                let mean = bin.mean
                low = (min(low.0, mean.r), min(low.1, mean.g), min(low.2, mean.b))
                high = (max(high.0, mean.r), max(high.1, mean.g), max(high.2, mean.b))
                pixels += bin.population
            }
            let spreads = [3 * Int64(high.0 - low.0), 4 * Int64(high.1 - low.1), 2 * Int64(high.2 - low.2)]
            axis = spreads.indices.max { spreads[$0] < spreads[$1] } ?? 0
            // Pixels times the squared spread: a large, varied box first; one colour never.
            priority = spreads[axis] > 0 ? pixels * spreads[axis] * spreads[axis] : 0
        }

        /// The mean colour of its pixels (summed in 64 bits: a large picture of one colour
        /// would pass 32).
        var mean: (r: Int32, g: Int32, b: Int32) {
            var n: Int64 = 0, r: Int64 = 0, g: Int64 = 0, b: Int64 = 0
            for bin in bins {
                n += bin.population
                r += bin.r
                g += bin.g
                b += bin.b
            }
            return (Int32((r + n / 2) / n), Int32((g + n / 2) / n), Int32((b + n / 2) / n))
        }

        /// The two halves at the pixel median along ``axis`` (each keeps at least one bin).
        func split() -> (Box, Box) {
            let axis = axis
            func key(_ bin: Bin) -> Int32 {
                let mean = bin.mean
                return axis == 0 ? mean.r : axis == 1 ? mean.g : mean.b
            }
            let sorted = bins.sorted { key($0) < key($1) }
            let half = sorted.reduce(Int64(0)) { $0 + $1.population } / 2
            var seen: Int64 = 0, cut = 1
            for (index, bin) in sorted.enumerated() {
                seen += bin.population
                if seen >= half {
                    cut = index + 1
                    break
                }
            }
            cut = min(max(cut, 1), sorted.count - 1)
            return (Box(bins: Array(sorted[..<cut])), Box(bins: Array(sorted[cut...])))
        }
    }
}

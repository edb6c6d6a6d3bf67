/// What a terminal's parse of a batch of pixels costs, learned from its answers to parse
/// requests (``ParsePacing``, issue 46): a time a byte and a time an image, fitted by least
/// squares over the batches it answered, recent ones weighing most, with a fixed part (the
/// answer's way back, a network's delay, the frame's text) that neither explains.
///
/// Their ratio is the price of an image in bytes, which `PixelImagePainter` adds to each
/// image's bytes when it fills a frame's allowance, in place of the encoder's prior: 3.7 KB
/// for sixel (xterm on the Intel machine, `SixelGraphics.costPerImage`, D-077), 0 for kitty
/// placements and iTerm2 images. The same pages cost 0.87 KB an image in xterm on the AMD
/// machine (D-081): a terminal on another machine, or another terminal, pays its own.
///
/// The two are told apart only when batches mix bytes and images in different proportions
/// (whole pictures beside strips, pages of small and large pictures). While they do not (a
/// fling of whole thumbnails of one size), no price is given and the prior stands; there
/// it does not matter, because the allowance, learned in the same units, already says how
/// many such pictures a frame takes. Batches whose round trip exceeded the shortest one by
/// more than ``stallPeriods`` frame periods are left out: they are the terminal's own stalls
/// (xterm sharing its cores), not what the batch cost, and one of them would pull the fit
/// for dozens of batches. (The shortest is subtracted first: over ssh every answer carries
/// the network's delay.) ``ParsePacing`` does not add the first answer, its own shortest.
/// The price may come and go from one batch to the next as its error
/// crosses ``maximumError``; the allowance, in the units of the moment, follows within a
/// few batches.
///
/// Pure arithmetic on what it is given: tests drive it with a simulated terminal's costs.
public struct ParseCostModel: Sendable, Equatable {
    /// The weight an older batch keeps at each new one: the fit is worth about the last 400
    /// batches (a few seconds of a fling), enough for a terminal's noisy round trips to give
    /// a price within ``maximumError``, and it still follows a terminal that slows down.
    public static let forgetting = 0.995
    /// Batches fitted before a price is given.
    public static let minimumBatches = 12
    /// How different the batches' mixes must be, as 1 − ρ² of their bytes and images (ρ:
    /// their correlation, weighted as the fit weighs them): 0 when every batch has the same
    /// bytes an image, 1 when bytes and images are unrelated.
    public static let minimumSpread = 0.1
    /// The prices believed, in bytes an image: a fit outside is clamped into it.
    public static let priceRange = 0...(64 << 10)
    /// Round trips longer than the shortest by more than this many frame periods are not
    /// fitted (stalls).
    public static let stallPeriods = 4
    /// The price's standard error, in bytes, above which it is not given (the error of a
    /// ratio of two fitted costs, both uncertain: the delta method): a terminal's round
    /// trips are noisy (xterm's vary by milliseconds for the same batch), and a fit over
    /// batches that barely differ in their mix swung from 0 to 64 KB between runs.
    public static let maximumError = 1_000.0

    /// Weighted sums of the batches' bytes (b), images (i) and round trips (t, seconds).
    private var sums = Sums()
    /// Batches fitted so far.
    public private(set) var batches = 0
    /// What an image costs the terminal beside its bytes, in bytes (nil: not learned yet, or
    /// not within ``maximumError``). Solved once a batch, when it is fitted: the backend
    /// reads it every frame.
    public private(set) var imagePrice: Int?

    /// Nothing fitted yet.
    public init() {}

    /// A batch of `bytes` pixel bytes in `images` images came back after `roundTrip`, at a
    /// frame period of `period`; `shortest` is the shortest round trip seen (this one
    /// included), the delay no batch shortens.
    public mutating func add(bytes: Int, images: Int, roundTrip: Duration, shortest: Duration = .zero, period: Duration) {
        guard roundTrip - shortest <= period * Self.stallPeriods else { return }
        sums.fade(by: Self.forgetting)
        sums.add(b: Double(bytes), i: Double(images), t: Double(roundTrip.nanoseconds) / 1e9)
        batches += 1
        imagePrice = fit.flatMap { fit in
            guard fit.priceError <= Self.maximumError else { return nil }
            let price = min(max(fit.perImage / fit.perByte, Double(Self.priceRange.lowerBound)), Double(Self.priceRange.upperBound))
            return Int(price.rounded())
        }
    }

    /// The fitted costs in seconds (a byte, an image, and the fixed part) and the standard
    /// error of the price they give (bytes), or nil while the batches cannot tell bytes from
    /// images (too few, or mixed too alike).
    public var fit: (perByte: Double, perImage: Double, fixed: Double, priceError: Double)? {
        guard batches >= Self.minimumBatches, let centred = sums.centred else { return nil }
        let det = centred.bb * centred.ii - centred.bi * centred.bi
        guard centred.bb > 0, centred.ii > 0, det / (centred.bb * centred.ii) >= Self.minimumSpread else { return nil }
        let perByte = (centred.bt * centred.ii - centred.it * centred.bi) / det
        let perImage = (centred.bb * centred.it - centred.bi * centred.bt) / det
        guard perByte > 0 else { return nil }
        let fixed = centred.mean.t - perByte * centred.mean.b - perImage * centred.mean.i
        // The residuals' variance over the batches' effective number (weights fade); the
        // two costs' covariance is residual / (count · det) · [[ii, −bi], [−bi, bb]], and the
        // price p = perImage / perByte varies, to first order (the delta method), by
        // residual / (count · det) · (bb + 2 p bi + p² ii) / perByte².
        let count = sums.effectiveCount
        let residual = max(0, centred.tt - perByte * centred.bt - perImage * centred.it) * count / max(count - 3, 1)
        let price = perImage / perByte
        let spread = max(0, centred.bb + 2 * price * centred.bi + price * price * centred.ii)
        let priceError = (residual / (count * det) * spread).squareRoot() / perByte
        return (perByte, perImage, fixed, priceError)
    }

    /// The price the fit gives and its standard error, in bytes, whether or not it is within
    /// ``maximumError`` (nil: no fit): what a report shows of a price not learned.
    public var fittedPrice: (price: Int, error: Int)? {
        guard let fit else { return nil }
        let price = max(-1e9, min(1e9, fit.perImage / fit.perByte)), error = min(1e9, fit.priceError)
        return (Int(price.rounded()), Int(error.rounded()))
    }
}

extension ParseCostModel {
    /// Exponentially weighted sums for a least-squares fit of t on b and i.
    struct Sums: Sendable, Equatable {
        /// The weights, and their squares (for the effective count).
        var w = 0.0, ww = 0.0
        var b = 0.0, i = 0.0, t = 0.0
        var bb = 0.0, bi = 0.0, ii = 0.0, bt = 0.0, it = 0.0, tt = 0.0

        mutating func fade(by factor: Double) {
            w *= factor; ww *= factor * factor; b *= factor; i *= factor; t *= factor
            bb *= factor; bi *= factor; ii *= factor; bt *= factor; it *= factor; tt *= factor
        }

        mutating func add(b x: Double, i y: Double, t z: Double) {
            w += 1; ww += 1; b += x; i += y; t += z
            bb += x * x; bi += x * y; ii += y * y; bt += x * z; it += y * z; tt += z * z
        }

        /// How many equal batches the faded weights are worth.
        var effectiveCount: Double { ww > 0 ? w * w / ww : 0 }

        /// Weighted means, and the (co)variances about them.
        var centred: (mean: (b: Double, i: Double, t: Double), bb: Double, bi: Double, ii: Double, bt: Double, it: Double, tt: Double)? {
            guard w > 0 else { return nil }
            let mb = b / w, mi = i / w, mt = t / w
            return ((mb, mi, mt), bb / w - mb * mb, bi / w - mb * mi, ii / w - mi * mi, bt / w - mb * mt, it / w - mi * mt, tt / w - mt * mt)
        }
    }
}

/// Nearest palette colours for a 24-bit colour: how RGB is shown on terminals without
/// direct colour (and how placeholders are made for them).
public enum ColorPalette {
    /// The nearest of the xterm 6×6×6 cube (16–231) and grey ramp (232–255).
    public static func xterm256(_ rgb: UInt32) -> Int {
        let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
        let levels = [0, 95, 135, 175, 215, 255]
        func level(_ v: Int) -> Int { levels.indices.min { abs(levels[$0] - v) < abs(levels[$1] - v) }! }
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cube = 16 + 36 * lr + 6 * lg + lb
        let cubeError = sq(levels[lr] - r) + sq(levels[lg] - g) + sq(levels[lb] - b)
        let grey = min(max((r + g + b) / 3 - 8, 0) / 10, 23)
        let greyValue = 8 + grey * 10
        let greyError = sq(greyValue - r) + sq(greyValue - g) + sq(greyValue - b)
        return greyError < cubeError ? 232 + grey : cube
    }

    /// The nearest of the first `count` (8 or 16) standard colours.
    public static func basic(_ rgb: UInt32, count: Int) -> Int {
        let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
        // The first nearest, as `min(by:)` would pick it, without copying the palette.
        var nearest = 0, nearestDistance = Int.max
        for index in 0..<max(1, min(count, standard.count)) {
            let d = distance(standard[index], r, g, b)
            if d < nearestDistance { (nearest, nearestDistance) = (index, d) }
        }
        return nearest
    }

    /// The usual xterm values of the 16 standard colours.
    public static let standard: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private static func distance(_ c: (Int, Int, Int), _ r: Int, _ g: Int, _ b: Int) -> Int { sq(c.0 - r) + sq(c.1 - g) + sq(c.2 - b) }
    private static func sq(_ v: Int) -> Int { v * v }
}

/// A point in cells: x is the column, y the row.
public struct Point: Hashable, Sendable {
    /// The column, 0 at the left.
    public var x: Int
    /// The row, 0 at the top.
    public var y: Int

    /// The cell in column `x` of row `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A rectangle of cells; empty when either side is zero or less.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns across.
    public var width: Int
    /// Rows down.
    public var height: Int

    /// The rectangle `width` columns wide and `height` rows high whose top-left cell is (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The first column to the right of the rectangle.
    public var maxX: Int { x + width }
    /// The first row below the rectangle.
    public var maxY: Int { y + height }
    /// No cell inside: a side of zero or less.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The overlap of two rectangles (empty, at `self`'s origin, when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the cell at `point` is inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// Moved by (dx, dy).
    public func offsetBy(dx: Int, dy: Int) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }

    /// Shrunk by `amount` on every side.
    public func insetBy(_ amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    public var description: String { "(\(x),\(y) \(width)×\(height))" }
}

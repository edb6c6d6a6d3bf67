import CellCanvas

/// A prepared image blits straight into a canvas: its cells are canvas cells.
extension CellImage: CellGrid {
    public var gridColumns: Int { columns }
    public var gridRows: Int { rows }
    public func cell(column: Int, row: Int) -> Cell { cells[row * columns + column] }
    public var gridCells: [Cell]? { cells }
}

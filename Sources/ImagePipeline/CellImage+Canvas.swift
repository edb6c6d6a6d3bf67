import CellCanvas

/// A prepared image blits straight into a canvas: what the renderer can show directly.
extension CellImage: CellGrid {
    public var gridColumns: Int { columns }
    public var gridRows: Int { rows }

    public func cell(column: Int, row: Int) -> Cell {
        let i = row * columns + column
        let style = CellStyle(foreground: canvasColor(foreground[i]), background: canvasColor(background[i]))
        return Cell(scalar: glyphs[i], style: style)
    }

    private func canvasColor(_ value: UInt32) -> Color {
        guard value != CellImage.noColor else { return .default }
        return colorMode == .truecolor ? .rgb(value) : .palette(UInt8(truncatingIfNeeded: value))
    }
}

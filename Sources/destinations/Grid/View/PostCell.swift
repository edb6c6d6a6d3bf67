import CellCanvas
import CollectionKit
import ImagePipeline

/// A destination post in the grid: a thumbnail (placeholder until prepared) over its
/// title, region and likes, in a box.
final class PostCell: CollectionViewCell {
    var title = ""
    var region = ""
    var likes = 0
    /// The person likes this post (their own like is marked, as a client's filled heart).
    var isLiked = false
    var image: CellImage?
    var isPlaceholder = true
    /// The thumbnail's source (a file or a feed's URL), for counting what was shown.
    var assetPath = ""
    var failure: String?
    /// Border and likes colours for the terminal's background.
    var theme = Theme.dark

    /// Rows of a cell: border, thumbnail, title, region, likes, border.
    static let thumbnailRows = 7
    static let height = thumbnailRows + 5

    override func prepareForReuse() {
        image = nil
        isPlaceholder = true
        assetPath = ""
        failure = nil
    }

    /// The selection is a state the view draws, not a configuration: moving it configures nothing.
    override func draw(in canvas: inout Canvas, frame: Rect, clip: Rect, state: CellState) {
        let border = CellStyle(foreground: state.isSelected ? theme.selectedBorder : theme.border, bold: state.isSelected)
        canvas.box(frame, style: border, clip: clip)
        if let image { canvas.blit(image, at: Point(x: frame.x + 1, y: frame.y + 1), clip: clip.intersection(frame.insetBy(1))) }
        if let failure {
            canvas.draw(" \(failure) ", at: Point(x: frame.x + 2, y: frame.y + 2), width: frame.width - 4,
                        style: CellStyle(foreground: .white, background: .red, bold: true), clip: clip)
        }
        let textX = frame.x + 2, width = frame.width - 4, top = frame.y + 1 + Self.thumbnailRows
        canvas.draw(title, at: Point(x: textX, y: top), width: width, style: CellStyle(bold: true), clip: clip)
        canvas.draw(region, at: Point(x: textX, y: top + 1), width: width, style: CellStyle(dim: true), clip: clip)
        canvas.draw(isLiked ? "♥ \(likes) · liked" : "♥ \(likes)", at: Point(x: textX, y: top + 2), width: width,
                    style: CellStyle(foreground: theme.likes, bold: isLiked), clip: clip)
    }

    /// The thumbnail size for a cell of `width` columns.
    static func thumbnailSize(width: Int) -> (columns: Int, rows: Int) { (max(1, width - 2), thumbnailRows) }
}

import CellCanvas
import CollectionKit
import DestinationsModel
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
    /// What a feed's post says beyond its text: hidden, pictures, alt text, a GIF, a boost.
    var marks = Marks()

    /// A feed's post's marks: over a hidden post's placeholder, and at the likes line's end.
    struct Marks: Equatable {
        /// Hidden behind its warning: the label drawn over the placeholder.
        var hiddenLabel: String?
        /// "1/4" for a post of several pictures.
        var pictures: String?
        /// The first picture has alt text.
        var hasAltText = false
        /// The first picture is a GIF (a gifv's still).
        var isAnimated = false
        /// Who boosted it.
        var boostedBy: String?

        init() {}

        init(_ post: DestinationPost) {
            if post.isHidden { hiddenLabel = post.warning == "sensitive" ? " sensitive · x shows " : " content warning · x shows " }
            if post.pictures.count > 1 { pictures = "1/\(post.pictures.count)" }
            hasAltText = !post.isHidden && post.pictures.first?.altText != nil
            isAnimated = post.pictures.first?.isAnimated ?? false
            boostedBy = post.boostedBy
        }

        /// The badge at the likes line's end: "1/4 GIF ALT", nil when there is none.
        var badge: String? {
            let words = [pictures, isAnimated ? "GIF" : nil, hasAltText ? "ALT" : nil].compactMap { $0 }
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
    }

    /// Rows of a cell: border, thumbnail, title, region, likes, border.
    static let thumbnailRows = 7
    static let height = thumbnailRows + 5

    override func prepareForReuse() {
        image = nil
        isPlaceholder = true
        assetPath = ""
        failure = nil
        marks = Marks()
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
        let label = CellStyle(foreground: .white, background: .black, bold: true)
        if let hidden = marks.hiddenLabel {
            canvas.draw(hidden, at: Point(x: frame.x + 2, y: frame.y + 1 + Self.thumbnailRows / 2), width: frame.width - 4, style: label, clip: clip)
        }
        let textX = frame.x + 2, width = frame.width - 4, top = frame.y + 1 + Self.thumbnailRows
        // A hidden post's title is its warning: drawn as one, not as the post's words.
        canvas.draw(title, at: Point(x: textX, y: top), width: width,
                    style: marks.hiddenLabel == nil ? CellStyle(bold: true) : CellStyle(underline: true), clip: clip)
        canvas.draw(region, at: Point(x: textX, y: top + 1), width: width, style: CellStyle(dim: true), clip: clip)
        var likesLine = isLiked ? "♥ \(likes) · liked" : "♥ \(likes)"
        if let booster = marks.boostedBy { likesLine += " · ♺ \(booster)" }
        // The marks go at the likes line's end, never over the picture: a mark over pixel
        // cells cost a kitty or sixel thumbnail its row.
        var likesWidth = width
        if let badge = marks.badge, width > badge.count + 8 {
            likesWidth = width - badge.count - 1
            canvas.draw(badge, at: Point(x: textX + width - badge.count, y: top + 2), style: CellStyle(reverse: true), clip: clip)
        }
        canvas.draw(likesLine, at: Point(x: textX, y: top + 2), width: likesWidth, style: CellStyle(foreground: theme.likes, bold: isLiked), clip: clip)
    }

    /// The thumbnail size for a cell of `width` columns.
    static func thumbnailSize(width: Int) -> (columns: Int, rows: Int) { (max(1, width - 2), thumbnailRows) }
}

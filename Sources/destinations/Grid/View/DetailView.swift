import CellCanvas
import DestinationsModel
import ImagePipeline

/// One post shown large over the grid: the placeholder at once, the photo prepared off
/// the main thread at this size when it arrives. Sized from the area it covers, so a
/// resize asks for a new image size.
final class DetailView {
    let id: Int
    /// Which of the post's pictures (0: the first).
    let picture: Int
    let asset: AssetID
    private(set) var area: Rect
    private(set) var image: CellImage?
    private(set) var isPlaceholder = true
    var failure: String?
    var download: Cancellable?
    /// Over a feed, while the photo is on its way: bytes in and the whole length, if known.
    var progress: (received: Int, expected: Int?)?

    /// Photos are about 16:10 and a cell about twice as tall as it is wide.
    static let cellAspect = 1.6 * 2
    /// Title, author, two lines of alt text, likes, the status's page, keys; and the border.
    static let textRows = 8
    /// What `o` did ("opened in your browser", or where to paste the page), shown on the keys' line.
    var note: String?

    init(id: Int, picture: Int = 0, asset: AssetID, area: Rect) {
        self.id = id
        self.picture = picture
        self.asset = asset
        self.area = area
    }

    /// The image size that fits the area below a border and above the text.
    var imageSize: (columns: Int, rows: Int) {
        let rows = max(1, area.height - 2 - Self.textRows)
        let columns = max(1, min(area.width - 4, Int(Double(rows) * Self.cellAspect)))
        return (columns, max(1, min(rows, Int(Double(columns) / Self.cellAspect))))
    }

    var imageKey: PreparedImageKey { PreparedImageKey(asset: asset, columns: imageSize.columns, rows: imageSize.rows) }

    func show(_ image: CellImage, placeholder: Bool) {
        self.image = image
        isPlaceholder = placeholder
    }

    /// Returns true when the image must be prepared again at a new size.
    func resize(to newArea: Rect) -> Bool {
        let oldKey = imageKey
        area = newArea
        return imageKey != oldKey
    }

    /// "downloading 45 % (120 of 260 KB)…" while bytes arrive, else "preparing …".
    func waitingText(_ size: (columns: Int, rows: Int)) -> String {
        guard let progress, progress.received > 0 else { return "preparing \(size.columns)×\(size.rows)…" }
        let kilobytes = { (bytes: Int) in (bytes + 512) / 1024 }
        guard let expected = progress.expected, expected > 0 else { return "downloading \(kilobytes(progress.received)) KB…" }
        let percent = min(100, progress.received * 100 / expected)
        return "downloading \(percent) % (\(kilobytes(min(progress.received, expected))) of \(kilobytes(expected)) KB)…"
    }

    func draw(into canvas: inout Canvas, post: DestinationPost, likes: Int, isLiked: Bool, theme: Theme) {
        guard area.width >= 10, area.height >= Self.textRows + 3 else { return }
        let panel = theme.detail
        canvas.fill(area, with: Cell(" ", style: panel))
        canvas.box(area, style: theme.detailBorder)
        let size = imageSize
        let imageOrigin = Point(x: area.x + (area.width - size.columns) / 2, y: area.y + 1)
        if let image { canvas.blit(image, at: imageOrigin, clip: area.insetBy(1)) }
        if let failure {
            canvas.draw(" \(failure) ", at: Point(x: imageOrigin.x + 1, y: imageOrigin.y + 1), width: size.columns - 2,
                        style: CellStyle(foreground: .white, background: .red, bold: true))
        }
        let textX = area.x + 3, width = area.width - 6
        var y = area.y + 1 + size.rows + 1
        var title = panel
        title.bold = !post.isHidden
        title.underline = post.isHidden
        canvas.draw(post.title, at: Point(x: textX, y: y), width: width, style: title)
        y += 1
        canvas.draw(post.boostedBy.map { "\(post.region) · ♺ \($0)" } ?? post.region, at: Point(x: textX, y: y), width: width, style: theme.detailDim)
        y += 1
        for line in Self.aboutPicture(post, picture: picture, width: width) {
            canvas.draw(line, at: Point(x: textX, y: y), width: width, style: panel)
            y += 1
        }
        canvas.draw(isLiked ? "♥ \(likes) · liked" : "♥ \(likes)", at: Point(x: textX, y: y), width: width, style: theme.detailLikes)
        y += 1
        if let url = post.url {
            // A link where the terminal draws them (OSC 8), the plain address elsewhere.
            let drawn = canvas.draw(url, at: Point(x: textX, y: y), width: width, style: theme.detailDim)
            canvas.link(url, at: Point(x: textX, y: y), width: drawn)
        }
        y -= 1
        let state = isPlaceholder ? (failure == nil && !post.isHidden ? waitingText(size) : "") : "\(size.columns)×\(size.rows) cells"
        var keys = "Esc back  L \(isLiked ? "unlike" : "like")  q quit"
        if post.warning != nil { keys = "x \(post.isHidden ? "show" : "hide")  " + keys }
        if post.url != nil { keys = "o open page  " + keys }
        if post.pictures.count > 1 { keys = "\(picture + 1)/\(post.pictures.count) ←/→  " + keys }
        canvas.draw(note ?? "\(state)   \(keys)", at: Point(x: textX, y: y + 2), width: width, style: theme.detailDim)
    }

    /// Two lines about the picture shown: its alt text (wrapped, cut with "…"), that it has
    /// none, or — while the post is hidden — what `x` does. Never the alt text of a hidden post.
    static func aboutPicture(_ post: DestinationPost, picture: Int, width: Int) -> [String] {
        if post.isHidden { return ["Hidden: \(post.warning ?? "sensitive").", "x shows the post and its pictures."] }
        guard post.pictures.indices.contains(picture) else { return ["", ""] }
        let shown = post.pictures[picture]
        let kind = shown.isAnimated ? "GIF, shown still" : "picture"
        guard let alt = shown.altText else { return ["This \(kind) has no alt text.", ""] }
        return wrap("ALT " + alt, width: width, lines: 2)
    }

    /// `text` in at most `lines` lines of `width` columns, broken at spaces where it can be,
    /// the last cut with "…" when the text goes on.
    static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
        guard width > 1 else { return Array(repeating: "", count: lines) }
        var result: [String] = []
        var rest = Substring(text)
        while result.count < lines {
            var used = 0, end = rest.startIndex, lastSpace: String.Index?
            while end < rest.endIndex {
                let w = DisplayWidth.of(rest[end])
                if used + w > width { break }
                if rest[end] == " " { lastSpace = end }
                used += w
                end = rest.index(after: end)
            }
            if end == rest.endIndex {
                result.append(String(rest))
                rest = ""
                break
            }
            if result.count == lines - 1 {
                var cut = rest[..<end]
                while !cut.isEmpty && DisplayWidth.of(String(cut)) + 1 > width { cut = cut.dropLast() }
                result.append(String(cut) + "…")
                rest = ""
                break
            }
            let breakAt = lastSpace ?? end
            result.append(String(rest[..<breakAt]))
            rest = rest[breakAt...].drop { $0 == " " }
        }
        while result.count < lines { result.append("") }
        return result
    }
}

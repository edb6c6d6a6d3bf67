@testable import destinations
import CellCanvas
import ImagePipeline
import Foundation
@testable import DestinationsModel
import FeedFormat
import TerminalFront
import Testing

/// The detail view's line under the photo while it is on its way: what a person on a slow
/// link reads instead of a bare "preparing…".
@Suite struct DetailViewTests {
    static func view() -> DetailView {
        DetailView(id: 1, asset: AssetID(path: "https://example.org/original/1.jpg"), area: Rect(x: 0, y: 0, width: 120, height: 40))
    }

    @Test func progressIsShownInPercentOfTheWholePhoto() {
        let detail = Self.view()
        let size = detail.imageSize
        #expect(detail.waitingText(size) == "preparing \(size.columns)×\(size.rows)…")
        detail.progress = (0, 266_240)
        #expect(detail.waitingText(size).hasPrefix("preparing"), "nothing in yet")
        detail.progress = (119_808, 266_240)
        #expect(detail.waitingText(size) == "downloading 45 % (117 of 260 KB)…")
        detail.progress = (300_000, 266_240)  // a photo that changed and started over
        #expect(detail.waitingText(size) == "downloading 100 % (260 of 260 KB)…")
        detail.progress = (51_200, nil)
        #expect(detail.waitingText(size) == "downloading 50 KB…", "no length from the server")
    }
}

/// The detail view of a feed's post (issue 45): its pictures' alt text, what a hidden post
/// says instead, and its web page as a link.
@Suite struct FeedDetailTests {
    static func post(hidden: Bool = false, alt: String? = "A hut under snow, its door open") -> DestinationPost {
        var post = DestinationPost(id: 1, title: hidden ? "Heights" : "The hut", region: "Ana", numberOfLikes: 3,
                                   asset: AssetID(path: "https://example.org/p/1.jpg"))
        post.pictures = [FeedPicture(previewURL: "https://example.org/p/1.jpg", url: "https://example.org/o/1.jpg", altText: alt),
                         FeedPicture(previewURL: "https://example.org/p/2.jpg", url: "https://example.org/o/2.jpg", isAnimated: true)]
        post.warning = "Heights"
        post.isHidden = hidden
        post.boostedBy = "Bo"
        post.url = "https://example.org/@ana/1"
        return post
    }

    func draw(_ post: DestinationPost, picture: Int = 0) -> Canvas {
        var canvas = Canvas(columns: 100, rows: 40)
        let detail = DetailView(id: 1, picture: picture, asset: AssetID(path: "https://example.org/o/1.jpg"), area: Rect(x: 0, y: 0, width: 100, height: 40))
        detail.draw(into: &canvas, post: post, likes: 3, isLiked: false, theme: .dark)
        return canvas
    }

    @Test func aPictureSaysItsAltTextOrThatItHasNone() {
        let first = draw(Self.post()).rowTexts.joined(separator: "\n")
        #expect(first.contains("ALT A hut under snow, its door open"))
        #expect(first.contains("Ana · ♺ Bo") && first.contains("1/2 ←/→") && first.contains("o open page"))
        let second = draw(Self.post(), picture: 1).rowTexts.joined(separator: "\n")
        #expect(second.contains("This GIF, shown still has no alt text."))
    }

    @Test func aHiddenPostSaysWhyAndShowsNoAltText() {
        let text = draw(Self.post(hidden: true)).rowTexts.joined(separator: "\n")
        #expect(text.contains("Hidden: Heights.") && text.contains("x show"))
        #expect(!text.contains("A hut under snow"))
    }

    @Test func theWebPageIsALinkOverItsCells() throws {
        let canvas = draw(Self.post())
        let link = try #require(canvas.links.first)
        #expect(link.url == "https://example.org/@ana/1")
        let row = canvas.rowTexts[link.y]
        #expect(row.contains("https://example.org/@ana/1"))
        let overlay = String(decoding: Hyperlinks.overlay(canvas.links, of: canvas), as: UTF8.self)
        #expect(overlay.hasPrefix("\u{1B}7") && overlay.hasSuffix("\u{1B}8"), "the cursor and attributes ncurses set are put back")
        #expect(overlay.contains("\u{1B}]8;;https://example.org/@ana/1\u{1B}\\\u{1B}[0;4;38;5;"), "underlined, in the detail view's colours")
        #expect(overlay.contains("https://example.org/@ana/1\u{1B}]8;;\u{1B}\\"))
    }

    /// A link's cells keep their colours and attributes, as the terminal numbers them.
    @Test func aLinkKeepsItsCellsColours() {
        var canvas = Canvas(columns: 12, rows: 1)
        canvas.draw("ab", at: Point(x: 0, y: 0), style: CellStyle(foreground: .palette(12), background: .rgb(0x102030), bold: true))
        canvas.draw("cd", at: Point(x: 2, y: 0), style: CellStyle(foreground: .palette(200), reverse: true))
        canvas.link("https://e.example/", at: Point(x: 0, y: 0), width: 4)
        let palette = String(decoding: Hyperlinks.overlay(canvas.links, of: canvas, capability: .palette256), as: UTF8.self)
        #expect(palette.contains("\u{1B}[0;4;1;94;48;5;\(ColorPalette.xterm256(0x102030))mab\u{1B}[0;4;7;38;5;200mcd"))
        let direct = String(decoding: Hyperlinks.overlay(canvas.links, of: canvas, capability: .direct), as: UTF8.self)
        #expect(direct.contains("\u{1B}[0;4;1;38;2;"), "a palette colour as its RGB on a direct-colour terminal")
        #expect(direct.contains(";48;2;16;32;48mab"))
        let none = String(decoding: Hyperlinks.overlay(canvas.links, of: canvas, capability: .none), as: UTF8.self)
        #expect(none.contains("\u{1B}[0;4;1mab\u{1B}[0;4;7mcd"))
    }

    @Test func onlyTerminalsThatDrawLinksGetThem() {
        #expect(Hyperlinks.isSupported(environment: ["TERM": "xterm-kitty"]))
        #expect(Hyperlinks.isSupported(environment: ["TERM": "xterm-256color", "VTE_VERSION": "7200"]))
        #expect(!Hyperlinks.isSupported(environment: ["TERM": "xterm-256color"]), "xterm")
        #expect(!Hyperlinks.isSupported(environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"]), "inside tmux 3.3")
        #expect(Hyperlinks.isSupported(environment: ["TERM": "screen", "DESTINATIONS_HYPERLINKS": "1"]))
        var canvas = Canvas(columns: 10, rows: 2)
        canvas.link("https://e.example/\u{1B}]0;x", at: Point(x: 0, y: 0), width: 5)
        #expect(canvas.links.isEmpty, "a URL with an escape in it is never written into one")
        canvas.link("https://e.example/", at: Point(x: 0, y: 0), width: 5)
        canvas.reset(columns: 10, rows: 2)
        #expect(canvas.links.isEmpty, "a new frame starts without links")
    }

    @Test func oOpensThePageOrSaysWhereToPasteIt() throws {
        #expect(PageOpener.open("https://example.org/@ana/1", environment: ["PATH": "/usr/bin"]).contains("paste it into a browser: https://example.org/@ana/1"))
        // A display and an xdg-open of our own that writes down what it was asked to open.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(folder.path)/opened'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let said = PageOpener.open("https://example.org/@ana/1", environment: ["PATH": folder.path, "DISPLAY": ":9"])
        #expect(said == "opening in your browser: https://example.org/@ana/1")
        let opened = folder.appendingPathComponent("opened").path
        for _ in 0..<6000 where !FileManager.default.fileExists(atPath: opened) { usleep(10_000) }  // 60 s: a hang's bound
        #expect((try? String(contentsOfFile: opened, encoding: .utf8)) == "https://example.org/@ana/1")
    }
}

/// `destinations login`'s server: https, plain http only to this machine (the secret, the
/// code and the token would cross the network in the clear).
@Suite struct LoginServerTests {
    @Test func aLoginGoesOverHTTPSOrStaysOnThisMachine() throws {
        #expect(try LoginCommand.base(of: "mastodon.social") == "https://mastodon.social")
        #expect(try LoginCommand.base(of: "127.0.0.1:8080") == "http://127.0.0.1:8080")
        #expect(try LoginCommand.base(of: "https://example.social/") == "https://example.social")
        #expect(throws: AppError.self) { try LoginCommand.base(of: "http://example.social") }
        #expect(throws: AppError.self) { try LoginCommand.base(of: "https://example.social/some/path") }
    }
}

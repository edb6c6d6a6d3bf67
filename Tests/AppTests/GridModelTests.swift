@testable import destinations
import DestinationsModel
import TerminalFront
import Testing

/// The grid as the state reads it: posts in an order, five to a row.
struct ListContents: GridContents {
    var ids: [Int]
    var columns = 5
    var count: Int { ids.count }
    func index(of id: Int) -> Int? { ids.firstIndex(of: id) }
    func identifier(at index: Int) -> Int? { ids.indices.contains(index) ? ids[index] : nil }
    /// Posts the catalogue says the person had liked.
    var favourited: Set<Int> = []
    func isFavourited(_ id: Int) -> Bool { favourited.contains(id) }
    /// Posts behind a content warning.
    var warned: Set<Int> = []
    func hasWarning(_ id: Int) -> Bool { warned.contains(id) }
    /// Pictures by post (1 when not listed).
    var pictures: [Int: Int] = [:]
    func pictureCount(_ id: Int) -> Int { pictures[id, default: 1] }
}

/// Every key's meaning, on the model alone: no terminal, no view, no clock.
@Suite struct GridModelTests {
    func fresh() -> GridModel { GridModel(showsHUD: true, imageMode: .async) }
    /// Posts 1 to 23, in order.
    let grid = ListContents(ids: Array(1...23))

    /// The state owns the selection: moving keys move it through the order shown, stop at
    /// the ends, and tell the screen which two borders changed.
    @Test func movingKeysMoveTheSelectionThroughTheOrderShown() {
        var state = fresh()
        #expect(state.update(.key(.down), in: grid) == [.selectionMoved(from: 1, to: 6, index: 5)])
        #expect(state.update(.key(.right), in: grid) == [.selectionMoved(from: 6, to: 7, index: 6)])
        #expect(state.update(.key(.character("k")), in: grid) == [.selectionMoved(from: 7, to: 2, index: 1)])
        #expect(state.update(.key(.character("h")), in: grid) == [.selectionMoved(from: 2, to: 1, index: 0)])
        #expect(state.update(.key(.left), in: grid) == [], "the first post: nothing before it")
        for _ in 0..<5 { _ = state.update(.key(.down), in: grid) }
        #expect(state.selected == 23, "Down stops at the last post")
        // Another order: the selection moves through it, not through the ids.
        let reversed = ListContents(ids: Array((1...23).reversed()))
        #expect(state.update(.key(.right), in: reversed) == [.selectionMoved(from: 23, to: 22, index: 1)])
        #expect(state.selected == 22)
    }

    /// A filter that hides the selected post moves the selection to the first one shown;
    /// Enter opens only a post that is shown.
    @Test func theSelectionStaysOnAShownPost() {
        var state = fresh()
        _ = state.update(.key(.down), in: grid)
        let filtered = ListContents(ids: [3, 9, 12])
        // Drawn at the commit as a cell state: nothing to configure again.
        #expect(state.update(.postsShownChanged, in: filtered) == [])
        #expect(state.selected == 3)
        #expect(state.selected == 3 && state.update(.postsShownChanged, in: filtered) == [])
        #expect(state.update(.postsShownChanged, in: ListContents(ids: [])) == [] && state.selected == 3, "nothing shown: nothing to select")
        #expect(state.update(.key(.enter), in: ListContents(ids: [9])) == [], "not shown: not opened")
        #expect(state.detailID == nil)
        #expect(state.update(.placeFound(id: 12), in: filtered) == [.selectionMoved(from: 3, to: 12, index: 2)])
        #expect(state.update(.placeFound(id: 99), in: filtered) == [] && state.selected == 12)
    }

    @Test func otherMovingKeysAskTheScreenAndLeaveTheStateAlone() {
        var state = fresh()
        #expect(state.update(.key(.character("J")), in: grid) == [.fling(1)])
        #expect(state.update(.key(.pageUp), in: grid) == [.page(-1)])
        #expect(state.update(.key(.character(" ")), in: grid) == [.page(1)])
        #expect(state.update(.key(.wheel(-1)), in: grid) == [.wheel(rows: -3)])
        #expect(state.update(.key(.control(0x05)), in: grid) == [.scroll(rows: 1)])
        #expect(state == fresh())
        // End asks for the bottom, and the model now pages a feed on to it (until g, Home or the end).
        #expect(state.update(.key(.end), in: grid) == [.scrollToBottom])
        #expect(state.seeking.pagesToTheEnd)
        #expect(state.update(.key(.home), in: grid) == [.scrollToTop] && !state.seeking.pagesToTheEnd)
    }

    @Test func typingAFilterRequeriesAtEveryKeyAndEnterKeepsIt() {
        var state = fresh()
        #expect(state.update(.key(.character("/")), in: grid) == [])
        #expect(state.isEditingFilter)
        #expect(state.update(.key(.character("C")), in: grid) == [.requery])
        #expect(state.update(.key(.character("u")), in: grid) == [.requery])
        #expect(state.query == PostQuery(filter: "Cu"))
        // While typing, letters are text: q does not quit, j does not move.
        #expect(state.update(.key(.character("q")), in: grid) == [.requery])
        #expect(!state.quit)
        #expect(state.update(.key(.backspace), in: grid) == [.requery])
        #expect(state.update(.key(.enter), in: grid) == [])
        #expect(!state.isEditingFilter && state.filter == "Cu")
        // Esc outside the filter clears it before it ever quits.
        #expect(state.update(.key(.escape), in: grid) == [.requery])
        #expect(state.filter == "" && !state.quit)
        #expect(state.update(.key(.escape), in: grid) == [])
        #expect(state.quit)
    }

    @Test func escWhileTypingClearsAndAnEmptyBackspaceDoesNothing() {
        var state = fresh()
        _ = state.update(.key(.character("/")), in: grid)
        #expect(state.update(.key(.backspace), in: grid) == [])
        _ = state.update(.key(.character("x")), in: grid)
        #expect(state.update(.key(.escape), in: grid) == [.requery])
        #expect(state.filter.isEmpty && !state.isEditingFilter)
    }

    @Test func sortCyclesThroughEveryOrderAndRequeries() {
        var state = fresh()
        var seen: [PostOrder] = []
        for _ in PostOrder.allCases {
            #expect(state.update(.key(.character("s")), in: grid) == [.requery])
            seen.append(state.sortOrder)
        }
        #expect(seen == [.title, .region, .likes, .catalogue])
    }

    /// A like is one per person, as Mastodon's favourite: `L` likes, `L` again takes it back.
    @Test func likeTogglesOnePersonsLikeAndMattersOnlyToTheLikesOrder() {
        var state = fresh()
        _ = state.update(.placeFound(id: 7), in: grid)
        #expect(state.update(.key(.character("L")), in: grid) == [.reconfigure([7]), .liked(7, true)])
        #expect(state.likesAdded(to: 7) == 1 && state.likesAdded(to: 8) == 0)
        #expect(state.query.addedLikes.isEmpty)
        for _ in 0..<3 { _ = state.update(.key(.character("s")), in: grid) }  // title, region, likes
        #expect(state.sortOrder == .likes)
        #expect(state.query.addedLikes == [7: 1])
        #expect(state.update(.key(.character("+")), in: grid) == [.reconfigure([7]), .liked(7, false)])
        #expect(state.likesAdded(to: 7) == 0 && state.query.addedLikes.isEmpty)
    }

    /// A post the catalogue says the person liked (a feed's `favourited`, its count
    /// including them): `L` takes the like back, and the count goes down by one.
    @Test func aLikeTheServerKnowsIsTakenBack() {
        var state = fresh()
        var contents = grid
        contents.favourited = [4]
        _ = state.update(.placeFound(id: 4), in: contents)
        #expect(state.isLiked(4, in: contents))
        #expect(state.update(.key(.character("L")), in: contents) == [.reconfigure([4]), .liked(4, false)])
        #expect(state.likesAdded(to: 4) == -1 && !state.isLiked(4, in: contents))
        // A rollback puts the person's word back.
        _ = state.update(.likeWord(id: 4, liked: true, favourited: true), in: contents)
        #expect(state.likesAdded(to: 4) == 0 && state.isLiked(4, in: contents))
    }

    @Test func theDetailViewTakesItsOwnKeys() {
        var state = fresh()
        _ = state.update(.placeFound(id: 3), in: grid)
        #expect(state.update(.key(.enter), in: grid) == [.openDetail(3)])
        #expect(state.detailID == 3)
        #expect(state.update(.key(.down), in: grid) == [])
        #expect(state.update(.key(.character("L")), in: grid) == [.reconfigure([3]), .liked(3, true)])
        #expect(state.update(.key(.escape), in: grid) == [.closeDetail])
        #expect(state.detailID == nil && !state.quit)
        _ = state.update(.key(.enter), in: grid)
        #expect(state.update(.key(.character("q")), in: grid) == [])
        #expect(state.quit)
    }

    @Test func helpClosesOnAnyKeyWithoutActingOnIt() {
        var state = fresh()
        _ = state.update(.key(.character("?")), in: grid)
        #expect(state.showsHelp)
        #expect(state.update(.key(.character("q")), in: grid) == [])
        #expect(!state.showsHelp && !state.quit)
    }

    @Test func togglesAndTheLoopsEffects() {
        var state = fresh()
        #expect(state.update(.key(.character("H")), in: grid) == [.relayout])
        #expect(!state.showsHUD)
        #expect(state.update(.key(.character("i")), in: grid) == [])
        #expect(state.imageMode == .sync)
        #expect(state.update(.key(.character("p")), in: grid) == [.idleWork(false)])
        #expect(state.update(.key(.character("r")), in: grid) == [.refreshRate(.hz120)])
        #expect(!state.toggles.prefetch && state.toggles.refreshRate == .hz120)
        #expect(state.update(.key(.control(0x0C)), in: grid) == [.repaint])
        #expect(state.update(.key(.resize), in: grid) == [.relayout])
    }

    /// A key that acts on the grid ends the search for the saved place, but `G` pressed
    /// then still pages a feed on to the end (the person asked for the end).
    @Test func endWhileThePlaceIsSoughtStillPagesToTheEnd() {
        var state = fresh()
        _ = state.update(.savedPlace(post: "900", filter: "", order: .catalogue), in: grid)
        #expect(state.seeking.place == "900" && state.seeking.pagesToTheEnd)
        #expect(state.update(.key(.end), in: grid) == [.scrollToBottom])
        #expect(state.seeking.place == nil && state.seeking.pagesToTheEnd)
        _ = state.update(.savedPlace(post: "900", filter: "", order: .catalogue), in: grid)
        _ = state.update(.key(.down), in: grid)
        #expect(state.seeking.place == nil && !state.seeking.pagesToTheEnd, "another key ends both")
    }

    /// `x` shows a warned post as it is and hides it again; a post without a warning has
    /// nothing to show. `--show-sensitive` starts the other way round.
    @Test func xRevealsAWarnedPostAndHidesItAgain() {
        var state = fresh()
        var warned = grid
        warned.warned = [1, 7]
        #expect(state.isHidden(1, in: warned) && !state.isHidden(2, in: warned))
        #expect(state.update(.key(.character("x")), in: warned) == [.hidden(1, false)])
        #expect(!state.isHidden(1, in: warned) && state.isHidden(7, in: warned), "only the selected post")
        #expect(state.update(.key(.character("x")), in: warned) == [.hidden(1, true)])
        _ = state.update(.key(.right), in: warned)
        #expect(state.update(.key(.character("x")), in: warned) == [], "post 2 has no warning")
        var showing = GridModel(showsHUD: true, imageMode: .async, showsSensitive: true)
        #expect(!showing.isHidden(1, in: warned) && !showing.isHidden(7, in: warned))
        #expect(showing.update(.key(.character("x")), in: warned) == [.hidden(1, true)])
    }

    /// `X` shows every warned post and hides them all again, leaving no post the exception
    /// (the loop keeps the choice for the next runs); it works in the open post too.
    @Test func capitalXShowsEveryWarnedPostAndHidesThemAll() {
        var state = fresh()
        var warned = grid
        warned.warned = [1, 7]
        _ = state.update(.key(.character("x")), in: warned)
        #expect(!state.isHidden(1, in: warned) && state.isHidden(7, in: warned))
        #expect(state.update(.key(.character("X")), in: warned) == [.sensitiveShown(true)])
        #expect(!state.isHidden(1, in: warned) && !state.isHidden(7, in: warned) && state.sensitive.showsAll)
        #expect(state.update(.key(.character("X")), in: warned) == [.sensitiveShown(false)])
        #expect(state.isHidden(1, in: warned) && state.isHidden(7, in: warned), "post 1's own x is forgotten too")
        _ = state.update(.key(.enter), in: warned)
        #expect(state.update(.key(.character("X")), in: warned) == [.sensitiveShown(true)])
    }

    /// In the detail view, ←/→ (h/l) page through the open post's pictures and stop at
    /// either end; opening a post starts at its first; `x` there reveals the open post.
    @Test func theDetailViewPagesThroughAPostsPictures() {
        var state = fresh()
        var gallery = grid
        gallery.pictures = [1: 3]
        gallery.warned = [1]
        #expect(state.update(.key(.enter), in: gallery) == [.openDetail(1)])
        #expect(state.update(.key(.left), in: gallery) == [], "already the first")
        #expect(state.update(.key(.right), in: gallery) == [.showPicture(1)])
        #expect(state.update(.key(.character("l")), in: gallery) == [.showPicture(2)])
        #expect(state.update(.key(.right), in: gallery) == [], "the last")
        #expect(state.update(.key(.character("h")), in: gallery) == [.showPicture(1)])
        #expect(state.selected == 1, "the grid's selection stays")
        #expect(state.update(.key(.character("x")), in: gallery) == [.hidden(1, false)])
        #expect(state.update(.key(.character("o")), in: gallery) == [.openPage(1)], "o: the post's web page")
        _ = state.update(.key(.escape), in: gallery)
        _ = state.update(.key(.enter), in: gallery)
        #expect(state.detailPicture == 0, "a post opens at its first picture")
        #expect(!state.isHidden(1, in: gallery), "revealed stays revealed")
    }
}

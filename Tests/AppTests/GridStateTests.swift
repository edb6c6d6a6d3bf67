@testable import destinations
import DestinationsModel
import TerminalFront
import Testing

/// Every key's meaning, on the state alone: no terminal, no view, no clock.
@Suite struct GridStateTests {
    func fresh() -> GridState { GridState(showsHUD: true, imageMode: .async) }

    @Test func movingKeysAskTheScreenAndLeaveTheStateAlone() {
        var state = fresh()
        #expect(state.handle(.down, columns: 5) == [.moveSelection(by: 5)])
        #expect(state.handle(.character("k"), columns: 5) == [.moveSelection(by: -5)])
        #expect(state.handle(.right, columns: 5) == [.moveSelection(by: 1)])
        #expect(state.handle(.character("h"), columns: 5) == [.moveSelection(by: -1)])
        #expect(state.handle(.character("J"), columns: 5) == [.fling(1)])
        #expect(state.handle(.pageUp, columns: 5) == [.page(-1)])
        #expect(state.handle(.character(" "), columns: 5) == [.page(1)])
        #expect(state.handle(.end, columns: 5) == [.scrollToBottom])
        #expect(state.handle(.wheel(-1), columns: 5) == [.wheel(rows: -3)])
        #expect(state.handle(.control(0x05), columns: 5) == [.scroll(rows: 1)])
        #expect(state == fresh())
    }

    @Test func typingAFilterRequeriesAtEveryKeyAndEnterKeepsIt() {
        var state = fresh()
        #expect(state.handle(.character("/"), columns: 5) == [])
        #expect(state.isEditingFilter)
        #expect(state.handle(.character("C"), columns: 5) == [.requery])
        #expect(state.handle(.character("u"), columns: 5) == [.requery])
        #expect(state.query == PostQuery(filter: "Cu"))
        // While typing, letters are text: q does not quit, j does not move.
        #expect(state.handle(.character("q"), columns: 5) == [.requery])
        #expect(!state.quit)
        #expect(state.handle(.backspace, columns: 5) == [.requery])
        #expect(state.handle(.enter, columns: 5) == [])
        #expect(!state.isEditingFilter && state.filter == "Cu")
        // Esc outside the filter clears it before it ever quits.
        #expect(state.handle(.escape, columns: 5) == [.requery])
        #expect(state.filter == "" && !state.quit)
        #expect(state.handle(.escape, columns: 5) == [])
        #expect(state.quit)
    }

    @Test func escWhileTypingClearsAndAnEmptyBackspaceDoesNothing() {
        var state = fresh()
        _ = state.handle(.character("/"), columns: 5)
        #expect(state.handle(.backspace, columns: 5) == [])
        _ = state.handle(.character("x"), columns: 5)
        #expect(state.handle(.escape, columns: 5) == [.requery])
        #expect(state.filter.isEmpty && !state.isEditingFilter)
    }

    @Test func sortCyclesThroughEveryOrderAndRequeries() {
        var state = fresh()
        var seen: [PostOrder] = []
        for _ in PostOrder.allCases {
            #expect(state.handle(.character("s"), columns: 5) == [.requery])
            seen.append(state.sortOrder)
        }
        #expect(seen == [.title, .region, .likes, .catalogue])
    }

    @Test func likesCountPerPostAndMatterOnlyToTheLikesOrder() {
        var state = fresh()
        state.selected = 7
        #expect(state.handle(.character("L"), columns: 5) == [.reconfigure([7])])
        #expect(state.handle(.character("+"), columns: 5) == [.reconfigure([7])])
        #expect(state.likesAdded(to: 7) == 2 && state.likesAdded(to: 8) == 0)
        #expect(state.query.addedLikes.isEmpty)
        state.sortOrder = .likes
        #expect(state.query.addedLikes == [7: 2])
    }

    @Test func theDetailViewTakesItsOwnKeys() {
        var state = fresh()
        state.selected = 3
        #expect(state.handle(.enter, columns: 5) == [.openDetail(3)])
        #expect(state.detailID == 3)
        #expect(state.handle(.down, columns: 5) == [])
        #expect(state.handle(.character("L"), columns: 5) == [.reconfigure([3])])
        #expect(state.handle(.escape, columns: 5) == [.closeDetail])
        #expect(state.detailID == nil && !state.quit)
        _ = state.handle(.enter, columns: 5)
        #expect(state.handle(.character("q"), columns: 5) == [])
        #expect(state.quit)
    }

    @Test func helpClosesOnAnyKeyWithoutActingOnIt() {
        var state = fresh()
        _ = state.handle(.character("?"), columns: 5)
        #expect(state.showsHelp)
        #expect(state.handle(.character("q"), columns: 5) == [])
        #expect(!state.showsHelp && !state.quit)
    }

    @Test func togglesAndTheLoopsEffects() {
        var state = fresh()
        #expect(state.handle(.character("H"), columns: 5) == [.relayout])
        #expect(!state.showsHUD)
        #expect(state.handle(.character("i"), columns: 5) == [])
        #expect(state.imageMode == .sync)
        #expect(state.handle(.character("p"), columns: 5) == [.toggleIdleWork])
        #expect(state.handle(.character("r"), columns: 5) == [.toggleRefreshRate])
        #expect(state.handle(.control(0x0C), columns: 5) == [.repaint])
        #expect(state.handle(.resize, columns: 5) == [.relayout])
    }
}

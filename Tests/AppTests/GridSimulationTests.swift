@testable import destinations
import CellCanvas
import ImagePipeline
import RenderLoop
import TerminalFront
import Foundation
import Testing

/// The grid's figures on a virtual clock: exact, so they may decide a test.
@Suite struct GridSimulationTests {
    @Test func aRunIsExactlyRepeatable() throws {
        let options = GridSimulation.options(.fling, seconds: 2, cellCost: 1)
        let first = try GridSimulation.run(options), second = try GridSimulation.run(options)
        #expect(ExactFigures(first.report) == ExactFigures(second.report))
        #expect(first.simulation.screen == second.simulation.screen)
        #expect(first.report.hitch.frames > 200, "about a frame per tick: \(first.report.hitch.frames)")
    }

    /// The seeds' claim through the whole app: a steady scroll at 120 Hz whose cells cost
    /// 6 ms each. A new row brings five cells, 30 ms inside one commit without prefetching;
    /// prepared in idle frame time, every commit meets its deadline.
    @Test func idleTimePrefetchRemovesTheHitchesOfExpensiveCells() throws {
        let off = try GridSimulation.run(GridSimulation.options(.steady, seconds: 3, prefetch: false, cellCost: 6)).report
        let on = try GridSimulation.run(GridSimulation.options(.steady, seconds: 3, prefetch: true, cellCost: 6)).report
        #expect(off.hitch.hitches > 0 && off.cellsPreparedIdle == 0 && off.cellsPreparedInCommit > 0)
        #expect(on.hitch.hitches == 0, "hitches with prefetch: \(on.hitch.hitches)")
        #expect(on.cellsPreparedIdle > 0)
        #expect(on.cellsPreparedInCommit < off.cellsPreparedInCommit)
        #expect(off.hitch.band == .critical)
    }

    @Test func aFlingPrefetchesDataAndCellsAndImagesArrive() throws {
        let (report, simulation) = try GridSimulation.run(GridSimulation.options(.fling, seconds: 3))
        #expect(report.cellsPreparedIdle > 0, "the fling prepared cells in idle time")
        #expect(report.prefetchBatches > 0)
        #expect(report.scrollFrames > 0, "the fling moved the grid")
        #expect(report.cacheBytes > 0, "prepared thumbnails are cached")
        #expect(report.hitch.hitches == 0, "commits cost nothing on this clock but the cells' own cost")
        #expect(report.placeholderCellFramesPct > 0 && report.placeholderCellFramesPct < 100)
        #expect(simulation.screen.contains("♥"))
    }

    @Test func turningRoundCancelsPrefetchesAhead() throws {
        let report = try GridSimulation.run(GridSimulation.options(.reverse, seconds: 3)).report
        #expect(report.prefetchCancels > 0)
        #expect(report.scrollFrames > 0)
    }

    @Test func filteringBringsNewCellsIntoCommits() throws {
        let report = try GridSimulation.run(GridSimulation.options(.search, seconds: 4, posts: 2000)).report
        #expect(report.cellsPreparedInCommit > 20, "filtering brought new cells on screen: \(report.cellsPreparedInCommit)")
    }

    /// Scrolled rows are shifted, so a scrolling frame sends about its newly exposed rows.
    @Test func scrollingFramesSendAboutTheirNewRows() throws {
        for scenario in [ScenarioKind.steady, .pages, .fling] {
            let report = try GridSimulation.run(GridSimulation.options(scenario, seconds: 3)).report
            #expect(report.scrollFrames > 0)
            #expect(report.scrollBytesRatio > 0.3 && report.scrollBytesRatio < 1.5, "\(scenario): \(report.scrollBytesRatio)")
        }
    }

    /// Nothing moves, nothing arrives: the loop waits instead of drawing. With the HUD
    /// off not a byte is written; with it on, its figures refresh at most 4 times a second.
    @Test func anIdleGridDrawsNothingAndTheHUDRefreshesAtFourHertz() throws {
        for hud in [false, true] {
            var options = GridSimulation.options(.idle, seconds: 20, posts: 1000)
            options.hud = hud
            let simulation = try GridSimulation(options, showsHUD: hud)
            let report = simulation.app.runToEnd()
            let idle = try #require(report.idle, "the first screen completed")
            #expect(idle.seconds > 15)
            if hud {
                #expect(report.hitch.frames < 60 + Int(idle.seconds * 4) + 8, "frames: \(report.hitch.frames)")
            } else {
                #expect(idle.bytes == 0, "bytes while idle: \(idle.bytes)")
                #expect(report.hitch.frames < 60, "frames: \(report.hitch.frames)")
            }
            #expect(report.hitch.hitches == 0 && report.hitch.hitchRatio == 0)
            #expect(simulation.app.scheduler.quietWaits > 0)
        }
    }

    /// A key that arrives while the loop sleeps is on screen at the next tick.
    /// The environment is read once at launch into a value the app is given: a simulation
    /// behaves the same whatever the shell it runs in says (it took iTerm2's images under
    /// `TERM_PROGRAM=iTerm.app`), and the launch's value is what decides.
    @Test func theEnvironmentIsAValueTheLaunchReadsOnce() throws {
        setenv("TERM_PROGRAM", "iTerm.app", 1)
        defer { unsetenv("TERM_PROGRAM") }
        #expect(LaunchEnvironment.read().terminalProgram == "iTerm.app")
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 1, posts: 100))
        #expect(simulation.app.graphics.mode == .symbols, "tests set what they need; the process's environment is not read")
    }

    /// The post open large has one owner, the state: the view opens and closes with it.
    @Test func theDetailViewFollowsTheState() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 3600, posts: 1000))
        simulation.settle()
        simulation.press(.right, .enter)
        #expect(simulation.app.model.detailID == 2 && simulation.app.view.detail?.id == 2)
        simulation.press(.escape)
        #expect(simulation.app.model.detailID == nil && simulation.app.view.detail == nil)
    }

    @Test func aKeyWakesAQuietGridWithinOneFrame() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 3600, posts: 1000))
        simulation.settle()
        let waitsBefore = simulation.app.scheduler.quietWaits
        let before = simulation.app.scheduler.nextTick
        simulation.app.scheduler.waitWhileQuiet(simulation.app, until: simulation.app.nextScheduledWork)  // asleep: nothing to do
        #expect(simulation.app.scheduler.quietWaits == waitsBefore + 1)
        simulation.backend.type(.character("l"))  // the selection moves right
        simulation.app.scheduler.waitWhileQuiet(simulation.app, until: simulation.app.nextScheduledWork)
        #expect(!simulation.app.isQuiet, "woken by the key")
        let record = simulation.app.scheduler.runFrame(simulation.app)
        #expect(simulation.backend.cellsWrittenInLastFrame > 0, "the first frame after the key shows it")
        #expect(simulation.app.model.selected == 2)
        #expect(record.tick >= before)
    }

    @Test func thumbnailsReplaceTheirPlaceholdersWhenNothingMoves() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 10))
        simulation.frames(1)
        #expect(simulation.placeholdersOnScreen > 0, "the first frame shows placeholders")
        simulation.frames(120)  // a second: the 80 ms ± 40 ms network is long done
        #expect(simulation.placeholdersOnScreen == 0)
        #expect(simulation.app.view.store.pendingCount == 0)
    }

    /// A photo the server failed (a 500) shows "will retry" on its placeholder and is asked
    /// for again after the store's backoff (2 s, then 4 s) with nothing pressed: the quiet
    /// loop wakes for it, the cell drops the mark and the photo arrives.
    @Test func interruptedThumbnailsAreAskedForAgainAndArrive() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 60), interruptedAttempts: 2)
        let store = simulation.app.view.store
        simulation.run(until: .seconds(1))  // every first attempt (80 ± 40 ms) has failed
        let marked = simulation.screen.components(separatedBy: "will retry").count - 1
        #expect(marked > 0 && marked == simulation.placeholdersOnScreen, "\(marked) marks, \(simulation.placeholdersOnScreen) placeholders")
        #expect(store.retries == 0)
        simulation.run(until: .seconds(4))  // asked again at ~2 s, failed again: 4 s to wait
        #expect(store.retries >= marked)
        #expect(simulation.screen.contains("will retry"))
        #expect(simulation.placeholdersOnScreen == marked)
        simulation.run(until: .seconds(8))  // asked a third time at ~6 s: arrived
        #expect(simulation.placeholdersOnScreen == 0)
        #expect(!simulation.screen.contains("will retry"))
        #expect(store.nextDueTime == nil)
    }

    /// The detail view's photo, interrupted once, says "will retry" over its placeholder and
    /// arrives after the backoff with no key pressed (its size shown, the mark gone).
    @Test func anInterruptedDetailPhotoIsAskedForAgain() throws {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 60), interruptedAttempts: 1)
        simulation.run(until: .seconds(4))  // the grid's thumbnails have failed once and arrived
        simulation.backend.type([.enter])
        simulation.run(until: .seconds(5))
        let detail = try #require(simulation.app.view.detail)
        #expect(detail.failure == "will retry" && detail.isPlaceholder)
        #expect(simulation.screen.contains("will retry"))
        simulation.run(until: .seconds(8))
        #expect(detail.failure == nil && !detail.isPlaceholder)
        #expect(!simulation.screen.contains("will retry") && simulation.screen.contains(" cells"), "detail:\n\(simulation.screen)")
    }

    /// An idle grid sleeps between the attempts and wakes for each retry: nothing else
    /// would draw a frame (no HUD, no key), so every photo arriving proves the wake.
    @Test func anIdleGridWakesToAskForInterruptedPhotosAgain() throws {
        let simulation = try GridSimulation(GridSimulation.options(.idle, seconds: 10, posts: 1000), interruptedAttempts: 2)
        let report = simulation.app.runToEnd()
        #expect(simulation.placeholdersOnScreen == 0)
        #expect(!simulation.screen.contains("will retry"))
        #expect(simulation.app.view.store.retries > 0)
        #expect(simulation.app.scheduler.quietWaits > 0)
        #expect(report.hitch.frames < 300, "frames: \(report.hitch.frames) in 10 s")
    }

    /// Cells that scroll off before their thumbnail arrives lose its request
    /// (`didEndDisplaying`), and cells prepared ahead lose theirs when they leave the preload
    /// range; a cell shown again (kept, not configured again) asks once more, so after any
    /// back-and-forth every thumbnail on screen arrives.
    @Test(arguments: [1, 2, 3]) func cellsShownAgainGetTheirThumbnails(seed: UInt64) throws {
        var options = GridSimulation.options(nil, seconds: 60, seed: seed)
        options.latency = .milliseconds(400)  // slower than the scrolls below
        let simulation = try GridSimulation(options)
        simulation.frames(2)
        for keys: [Key] in [[.pageDown, .pageUp], [.down, .down, .down, .up, .up, .up], [.pageDown, .pageDown, .pageUp]] {
            for key in keys {
                simulation.backend.type(key)
                simulation.frames(6)  // well before a thumbnail arrives
            }
            simulation.frames(240)  // two seconds: every request made is long done
            #expect(simulation.placeholdersOnScreen == 0, "after \(keys): \(simulation.placeholdersOnScreen) placeholders on screen")
        }
    }
}

/// The grid's screen, read as text after keys, with no terminal and no real time.
@Suite struct GridScreenTests {
    func grid(rows: Int = 48, columns: Int = 160, hud: Bool = false) throws -> GridSimulation {
        let simulation = try GridSimulation(GridSimulation.options(nil, seconds: 3600, posts: 1000, rate: .hz60), rows: rows, columns: columns, showsHUD: hud)
        simulation.settle()
        return simulation
    }

    @Test func theFirstScreenShowsPostsAndTheHeader() throws {
        let grid = try grid(hud: true)
        #expect(grid.screen.contains("Young grass") && grid.screen.contains("Meadow") && grid.screen.contains("Yellow blossom"))
        #expect(grid.backend.rowTexts[0].contains("60 Hz  prefetch on  images async as symbols  1000 posts"), "header: \(grid.backend.rowTexts[0])")
        #expect(grid.screen.contains("cells prepared: in commit"), "HUD:\n\(grid.screen)")
    }

    @Test func pagingMovesAwayAndHomeComesBack() throws {
        let grid = try grid()
        grid.press(.pageDown)
        #expect(!grid.screen.contains("Young grass") && grid.screen.contains("♥"))
        grid.press(.character("g"))
        #expect(grid.screen.contains("Young grass"))
    }

    @Test func likeFilterAndClear() throws {
        let grid = try grid()
        grid.press(.character("l"), .character("L"))
        #expect(grid.screen.contains("♥ 7965"), "Yellow blossom liked")
        grid.press(.character("L"))
        #expect(grid.screen.contains("♥ 7964") && !grid.screen.contains("♥ 7965"), "and the like taken back: one per person")
        grid.press(.character("/"), .character("l"), .character("a"), .character("k"), .character("e"))
        #expect(grid.screen.contains("filter: lake") && grid.screen.contains("Lakeside") && !grid.screen.contains("Yellow blossom"))
        grid.press(.escape)
        #expect(grid.screen.contains("Yellow blossom") && grid.screen.contains("Young grass"))
    }

    /// The soak's memory: a snapshot replaced by an apply is handed to the queue that frees
    /// it at the next commit, so the loop must not go quiet before that commit.
    /// After a sort or a filter the grid goes quiet (a glide of a cell kept off screen once
    /// kept it animating for ever), and holds no replaced snapshot when it does (a million
    /// items: the soak's memory).
    @Test func aQuietGridHoldsNoReplacedSnapshot() throws {
        let grid = try grid()
        for key: Key in [.character("s"), .character("/"), .character("e"), .escape, .character("s")] {
            grid.backend.type([key])
            var frames = 0
            repeat {
                grid.frames(1)
                frames += 1
            } while !grid.app.isQuiet && frames < 600
            #expect(grid.app.isQuiet, "after \(key): the grid never went quiet (animating: \(grid.app.view.collection.isAnimatingUpdate))")
            #expect(!grid.app.view.posts.source.holdsReplacedSnapshots, "after \(key): quiet with a replaced snapshot held")
        }
    }

    /// kitty graphics through the whole app: each image is transmitted once, in the frame
    /// its cells first show, and deleted from the terminal when the cache lets it go; no cell
    /// ever names an image the terminal does not have.
    /// After a resize changes the thumbnails' size, the new pictures arrive and the cells
    /// show them (pixel cells, not the placeholder mosaic).
    @Test func afterAResizeSixelThumbnailsArriveAtTheirNewSize() throws {
        var options = GridSimulation.options(nil, seconds: 3600, posts: 1000, rate: .hz60)
        options.graphics = .sixel
        let grid = try GridSimulation(options)
        grid.settle()
        func pixelCells() -> Int {
            let screen = grid.backend.screen
            var count = 0
            for y in 0..<screen.rows { for x in 0..<screen.columns where PixelCell.decode(screen[x, y]) != nil { count += 1 } }
            return count
        }
        #expect(pixelCells() > 1000)
        grid.backend.resize(rows: 40, columns: 116)
        grid.press(.resize)
        grid.settle()
        #expect(grid.placeholdersOnScreen == 0, "thumbnails at the new size arrived")
        #expect(pixelCells() > 1000, "and show as pixel cells: \(pixelCells())")
        // Each shows whole: as many cells in a row as its picture has columns (a thumbnail
        // kept from the old size would be cut, and a cut row is never drawn as pixels).
        var widths: [UInt32: [Int: Int]] = [:]
        let screen = grid.backend.screen
        for y in 0..<screen.rows {
            for x in 0..<screen.columns {
                if let cell = PixelCell.decode(screen[x, y]) { widths[cell.image, default: [:]][y, default: 0] += 1 }
            }
        }
        for (id, rows) in widths {
            let columns = grid.backend.pixelImages[id]?.columns
            #expect(rows.values.allSatisfy { $0 == columns }, "image \(id): rows of \(Set(rows.values).sorted()) cells, picture \(String(describing: columns)) columns")
        }
    }

    /// Sixel: the presenter is given each image before a cell names it, and told to forget
    /// it only once it left the cache and no cell shows it.
    @Test func sixelImagesReachThePresenterBeforeTheirCellsAndLeaveWithTheCache() throws {
        var options = GridSimulation.options(nil, seconds: 3600, posts: 1000, rate: .hz60)
        options.graphics = .sixel
        options.cacheBytes = 48 << 10  // a handful of thumbnails
        let grid = try GridSimulation(options)
        grid.settle()
        #expect(grid.backend.pixelImagesEnabled)
        #expect(grid.backend.rowTexts[0].contains("images async as sixel"), "header: \(grid.backend.rowTexts[0])")
        func shownIDs() -> Set<UInt32> {
            var ids = Set<UInt32>()
            let screen = grid.backend.screen
            for y in 0..<screen.rows {
                for x in 0..<screen.columns {
                    if let cell = PixelCell.decode(screen[x, y]) { ids.insert(cell.image) }
                }
            }
            return ids
        }
        let first = shownIDs()
        #expect(!first.isEmpty, "thumbnails are pixel cells")
        #expect(first.isSubset(of: Set(grid.backend.pixelImages.keys)), "every image on screen was handed over")
        for _ in 0..<6 {
            grid.press(.pageDown)
            #expect(shownIDs().isSubset(of: Set(grid.backend.pixelImages.keys)), "no cell names a forgotten image")
        }
        #expect(!first.isSubset(of: Set(grid.backend.pixelImages.keys)), "images that left the cache and the screen were forgotten")
        // What the presenter keeps is bounded by the cache and the live cells (on screen and
        // in the retained range), not by how far the grid went.
        let kept = grid.backend.pixelImages.count, live = grid.app.view.shownGraphicIDs.count
        let cached = grid.app.view.store.cacheCounters.count
        #expect(kept <= live + cached, "kept \(kept), live \(live), cached \(cached)")
    }

    @Test func kittyImagesAreSentWithTheirCellsAndDeletedWithTheCache() throws {
        var options = GridSimulation.options(nil, seconds: 3600, posts: 1000, rate: .hz60)
        options.graphics = .kitty
        options.cacheBytes = 48 << 10  // about ten thumbnails' placeholder cells
        let grid = try GridSimulation(options, capability: .direct)
        grid.settle()
        #expect(grid.backend.rowTexts[0].contains("images async as kitty"), "header: \(grid.backend.rowTexts[0])")
        var live = Set<UInt32>()
        var transmitted = 0, deleted = 0
        func account() {
            for command in KittyGraphics.commands(in: grid.backend.graphicsOutput) {
                let id = UInt32(command.control["i"] ?? "") ?? 0
                if command.control["a"] == "T" {
                    #expect(live.insert(id).inserted, "image \(id) sent twice")
                    transmitted += 1
                } else if command.control["a"] == "d" {
                    #expect(live.remove(id) != nil, "image \(id) deleted but never sent")
                    deleted += 1
                }
            }
        }
        func shownIDs() -> Set<UInt32> {
            var ids = Set<UInt32>()
            let screen = grid.backend.screen
            for y in 0..<screen.rows {
                for x in 0..<screen.columns {
                    let cell = screen[x, y]
                    if cell.code == KittyGraphics.placeholder, case .rgb(let id) = cell.style.foreground { ids.insert(id) }
                    if cell.code & GraphemeTable.internedBit != 0, GraphemeTable.character(for: cell.code).unicodeScalars.first?.value == KittyGraphics.placeholder,
                       case .rgb(let id) = cell.style.foreground { ids.insert(id) }
                }
            }
            return ids
        }
        account()
        let first = shownIDs()
        #expect(!first.isEmpty && first.isSubset(of: live), "every image on screen was sent: \(first.subtracting(live))")
        for _ in 0..<6 { grid.press(.pageDown) }
        live = []
        transmitted = 0
        deleted = 0
        account()
        #expect(deleted > 0, "a cache of ten thumbnails let images go, and the terminal was told")
        #expect(shownIDs().isSubset(of: live), "no cell names a deleted image")
    }

    @Test func detailViewOpensWithItsPhotoAndCloses() throws {
        let grid = try grid()
        grid.press(.enter)
        #expect(grid.screen.contains("Esc back") && grid.screen.contains(" cells"), "detail:\n\(grid.screen)")
        grid.press(.escape)
        #expect(!grid.screen.contains("Esc back") && grid.screen.contains("Yellow blossom"))
    }

    @Test func aNarrowerTerminalShowsFewerColumnsOfPosts() throws {
        let grid = try grid()
        func hearts() -> Int { grid.backend.rowTexts.first { $0.contains("♥") }.map { $0.components(separatedBy: "♥").count - 1 } ?? 0 }
        let wide = hearts()
        grid.backend.resize(rows: 40, columns: 90)
        grid.settle()
        #expect(hearts() > 0 && hearts() < wide, "\(wide) → \(hearts())")
    }

    @Test func aTinyTerminalSaysSoUntilItGrows() throws {
        let grid = try grid(rows: 8, columns: 20)
        #expect(grid.screen.contains("Terminal too small"))
        grid.backend.resize(rows: 48, columns: 160)
        grid.settle()
        #expect(grid.screen.contains("Young grass"))
    }

    @Test func aMillionPostsStartFromTheFirstScreenAndTheRestFollows() throws {
        let grid = try GridSimulation(GridSimulation.options(nil, seconds: 3600, posts: 1_000_000, rate: .hz120), showsHUD: false)
        // Before any frame: only the first posts exist; the whole list is a background apply.
        #expect(grid.app.view.posts.source.numberOfItems == GridPosts.initialPosts)
        grid.frames(1)
        #expect(grid.screen.contains("Young grass"))
        grid.settle()
        #expect(grid.app.view.posts.source.numberOfItems == 1_000_000)
        #expect(grid.backend.rowTexts[0].contains("1000000 posts"), "header: \(grid.backend.rowTexts[0])")
        grid.press(.character("G"))
        let last = grid.app.view.catalogue.post(999_999)
        // Titles are cut to the cell's width; the region and likes are short.
        #expect(grid.screen.contains("♥ \(last.numberOfLikes)") && grid.screen.contains(last.region), "the last post is reachable:\n\(grid.screen)")
    }

    @Test func filteringAMillionSaysHowManyMatchAndSortingKeepsThem() throws {
        let grid = try GridSimulation(GridSimulation.options(nil, seconds: 3600, posts: 1_000_000, rate: .hz120), showsHUD: false)
        grid.settle()
        let catalogue = grid.app.view.catalogue
        let matchingEntries = (0..<catalogue.baseCount).filter { catalogue.entryText($0).title.lowercased().contains("splash") }
        let matches = (0..<1_000_000).count { matchingEntries.contains(catalogue.entryIndex(ofPost: $0)) }
        grid.press(.character("/"), .character("s"), .character("p"), .character("l"), .character("a"), .character("s"), .character("h"), .enter)
        #expect(grid.backend.rowTexts[0].contains("\(matches) of 1000000 posts"), "header: \(grid.backend.rowTexts[0])")
        #expect(grid.screen.contains("Water close-up") && !grid.screen.contains("Young grass"))
        grid.press(.character("s"))  // by title: still only the matches
        #expect(grid.backend.rowTexts[0].contains("\(matches) of 1000000 posts"))
        grid.press(.escape)
        #expect(grid.backend.rowTexts[0].contains(" 1000000 posts"), "header: \(grid.backend.rowTexts[0])")
    }

    @Test func aLargePhotoFolderGrowsIntoTheGridWhileItIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grid-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46])
        for index in 0..<700 { try jpeg.write(to: folder.appendingPathComponent(String(format: "shot-%04d.jpg", index))) }
        var options = GridSimulation.options(nil, seconds: 3600, posts: 0, rate: .hz60)
        options.posts = nil
        options.photos = folder.path
        let grid = try GridSimulation(options)
        #expect(grid.app.view.posts.postCount == 64, "the first screen's photos only")
        // The scan runs on a real thread: frames until the header says it is done.
        let end = Date().addingTimeInterval(20)
        while !grid.backend.rowTexts[0].contains(" 700 posts") && Date() < end {
            grid.frames(1)
            usleep(1000)
        }
        #expect(grid.backend.rowTexts[0].contains(" 700 posts"), "header: \(grid.backend.rowTexts[0])")
        grid.press(.character("G"))
        #expect(grid.screen.contains("shot 0699"), "the last photo is in the grid:\n\(grid.screen)")
    }

    @Test func quitEndsTheRun() throws {
        let grid = try grid()
        grid.press(.character("q"))
        #expect(grid.app.isDone)
    }
}

/// `bench --headroom-clock virtual`: the headroom search on the virtual clock gives one
/// exact answer, run after run, and idle-time prefetch multiplies it (the seeds' claim: 2×).
@Suite struct VirtualHeadroomTests {
    static func headroom(prefetch: Bool) throws -> Double {
        try BenchCommand.bisectHeadroom(maxCost: 16, steps: 5, tries: 1) { cost in
            var options = GridSimulation.options(.steady, seconds: 1, prefetch: prefetch, cellCost: cost)
            options.latency = .milliseconds(80)
            return try VirtualRun.report(options).hitch.hitches
        }
    }

    @Test func theSameAnswerEveryRunAndPrefetchMoreThanDoublesIt() throws {
        let off = try Self.headroom(prefetch: false), on = try Self.headroom(prefetch: true)
        #expect(try Self.headroom(prefetch: false) == off && Self.headroom(prefetch: true) == on, "exact: the same on a second run")
        #expect(off > 0 && on / off >= 1.8, "headroom off \(off) ms, on \(on) ms")
    }
}

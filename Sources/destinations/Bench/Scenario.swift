import ArgumentParser
import CoreKit
import TerminalFront

/// Scripted input for measurement: the same keys a person would press, at seeded times.
enum ScenarioKind: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Repeated flings down, back up from the bottom: the hardest case for prefetching.
    case fling
    /// One row at a time, 20 rows per second (Ctrl-E): the seeds' slow scroll.
    case steady
    /// Page Down about twice a second.
    case pages
    /// A page, then two to three seconds of reading it: how long the thumbnails of a new
    /// page take to be whole on the screen (`settle_ms`).
    case browse
    /// A fling, then two to three seconds of reading where it stopped: how long the
    /// thumbnails take to be whole once the screen stops (`settle_ms`).
    case skim
    /// Flings that change direction every few hundred milliseconds: prefetches get cancelled.
    case reverse
    /// Types a filter a letter at a time (a snapshot per key), keeps it, scrolls, clears it.
    case search
    /// `G`, and `G` again every second: a feed paged on to its end as fast as its pages
    /// come, the view going to the new bottom each time (issue 25: no hitch from paging).
    case end
    /// No input at all: once the first screen is complete (every visible thumbnail in),
    /// the report measures what doing nothing costs (`idle_cpu_pct`, `idle_bytes`).
    case idle
}

/// Produces a scenario's keys as its time comes. Where it is going depends only on the
/// seed and on where the scroll is (it turns round at the ends), never on timing noise
/// beyond that.
struct ScenarioDriver {
    let kind: ScenarioKind
    private var random: SplitMix64
    private var nextAt: Duration = .milliseconds(300)
    private var goingDown = true
    private var typing: [Key] = []
    private let words: [String]
    private var wordIndex = 0

    init(kind: ScenarioKind, seed: UInt64, words: [String]) {
        self.kind = kind
        random = SplitMix64(seed: seed)
        self.words = words.isEmpty ? ["a"] : words
    }

    /// When the next key is due, from the start of the run (nil: never).
    var nextKeyTime: Duration? { kind == .idle ? nil : nextAt }

    /// The keys due by `elapsed` since the run started.
    mutating func keys(at elapsed: Duration, atTop: Bool, atBottom: Bool) -> [Key] {
        guard kind != .idle, elapsed >= nextAt else { return [] }
        if goingDown && atBottom { goingDown = false }
        if !goingDown && atTop { goingDown = true }
        switch kind {
        case .fling:
            wait(700, 1300)
            return [.character(goingDown ? "J" : "K")]
        case .steady:
            nextAt += .milliseconds(50)
            return [.control(goingDown ? 0x05 : 0x19)]  // Ctrl-E, Ctrl-Y
        case .pages:
            wait(350, 650)
            return [goingDown ? .pageDown : .pageUp]
        case .browse:
            wait(2000, 3000)
            return [goingDown ? .pageDown : .pageUp]
        case .skim:
            wait(4700, 5700)  // a fling of 400 rows a second moves for about 2.7 s
            return [.character(goingDown ? "J" : "K")]
        case .reverse:
            wait(250, 550)
            let down = atTop || (!atBottom && Int.random(in: 0..<10, using: &random) < 6)
            return [.character(down ? "J" : "K")]
        case .search:
            return searchStep()
        case .end:
            nextAt += .seconds(1)
            return [.character("G")]
        case .idle:
            return []
        }
    }

    /// `/`, a word a letter at a time, Enter; a fling through the results; Esc clears.
    private mutating func searchStep() -> [Key] {
        if typing.isEmpty {
            let word = words[wordIndex % words.count]
            wordIndex += 1
            typing = [.character("/")] + word.map { .character($0) } + [.enter, .character("J"), .escape]
        }
        let key = typing.removeFirst()
        switch key {
        case .enter: wait(600, 900)
        case .character("J"): wait(800, 1200)
        case .escape: wait(400, 600)
        default: wait(90, 160)
        }
        return [key]
    }

    private mutating func wait(_ low: Int, _ high: Int) {
        nextAt += .milliseconds(Int.random(in: low...high, using: &random))
    }
}

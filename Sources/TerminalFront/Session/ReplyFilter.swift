/// Takes the terminal's answers to the app's own requests out of the keys: a Primary Device
/// Attributes answer (`CSI ? 62 ; 4 ; … c`, asked for by ``ParsePacing``) reaches ncurses as
/// keys it has no name for, and without this filter its leading `ESC` would be read as the
/// Escape key (which quits the grid) and the rest typed into whatever has the focus.
///
/// ncurses hands over the whole answer at once (it arrives in one write and matches no key
/// of the terminfo entry), so an `ESC` followed by nothing is the Escape key. An answer cut
/// after `ESC [ ?` (which no key sends) is held until the rest comes; anything else that
/// does not complete the pattern is handed on as the keys it was, in order.
struct ReplyFilter {
    /// Keys read ahead, filtered, to hand on first, in order.
    private var ready: [Key] = []
    /// Keys read while matching that were not an answer, to be looked at again in order
    /// (one of them may be the `ESC` that begins one).
    private var held: [Key] = []
    /// Answers taken out so far.
    private(set) var answers = 0
    /// An answer begun (`ESC [ ?` at least) and not finished when the input ran dry.
    private var partial: [Key] = []
    /// The longest answer taken (a longer run of digits is not one).
    static let longestAnswer = 64

    /// Where `keys` stand against `ESC [ ? (digit | ;)* c`, the keys after the `ESC`.
    enum Match { case more, complete, mismatch }

    static func match(_ keys: [Key]) -> Match {
        guard keys.count <= longestAnswer else { return .mismatch }
        for (index, key) in keys.enumerated() {
            guard case .character(let character) = key else { return .mismatch }
            switch index {
            case 0: if character != "[" { return .mismatch }
            case 1: if character != "?" { return .mismatch }
            default:
                if character == "c" { return index == keys.count - 1 && index > 2 ? .complete : .mismatch }
                if !(character.isASCII && (character.isNumber || character == ";")) { return .mismatch }
            }
        }
        return .more
    }

    /// Keys read ahead are waiting.
    var hasKeys: Bool { !ready.isEmpty }

    /// Reads every key `source` has now, counting the answers among them and keeping the
    /// keys for ``next(from:)``.
    mutating func readAhead(from source: () -> Key?) {
        var keys: [Key] = []
        while let key = next(from: source) { keys.append(key) }
        ready = keys
    }

    /// The next key (one read ahead first, else from `source`; nil when there is none),
    /// answers taken out and counted in ``answers``.
    mutating func next(from source: () -> Key?) -> Key? {
        if !ready.isEmpty { return ready.removeFirst() }
        while true {
            var following: [Key]
            if partial.isEmpty {
                guard let key = held.isEmpty ? source() : held.removeFirst() else { return nil }
                guard key == .escape else { return key }
                following = []
            } else {
                following = partial
                partial = []
            }
            var outcome = Match.more
            while outcome == .more {
                guard let key = held.isEmpty ? source() : held.removeFirst() else { break }
                // ncurses puts its resize key first in its queue, even inside an answer; the
                // session takes sizes from the kernel and skips it anyway.
                if key == .resize { continue }
                following.append(key)
                outcome = Self.match(following)
            }
            switch outcome {
            case .complete:
                answers += 1
            case .more where following.count >= 2:
                partial = following
                return nil
            case .more, .mismatch:
                held = following + held
                return .escape
            }
        }
    }
}

/// A key press or terminal event, decoded from ncurses' wide-character input.
public enum Key: Hashable, Sendable {
    /// A printable character (any script; a grapheme cluster).
    case character(Character)
    /// The up arrow.
    case up
    /// The down arrow.
    case down
    /// The left arrow.
    case left
    /// The right arrow.
    case right
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Return or Enter (also Ctrl-J and Ctrl-M).
    case enter
    /// Escape alone (an escape sequence the terminal sent is decoded as its key).
    case escape
    /// Backspace or Delete-backward (also Ctrl-H).
    case backspace
    /// Tab (also Ctrl-I).
    case tab
    /// The terminal changed size; read ``TerminalSession/size`` again.
    case resize
    /// A mouse-wheel notch: -1 up, +1 down.
    case wheel(Int)
    /// A function key: F1 is `function(1)`.
    case function(Int)
    /// A control character other than the ones named above (e.g. 0x0c for Ctrl-L).
    case control(UInt8)
    /// A key ncurses reported that has no case here (its ncurses key code).
    case unknown(Int32)
}

extension Key {
    /// A character as the terminal sends it: control codes named, the rest as text.
    init(character value: UInt32) {
        self = switch value {
        case 13, 10: .enter
        case 27: .escape
        case 9: .tab
        case 8, 127: .backspace
        case 0..<32: .control(UInt8(value))
        default: Unicode.Scalar(value).map { .character(Character($0)) } ?? .unknown(Int32(bitPattern: value))
        }
    }
}

/// A key press or terminal event, decoded from ncurses' wide-character input.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    /// The terminal changed size; read ``TerminalSession/size`` again.
    case resize
    /// A mouse-wheel notch: -1 up, +1 down.
    case wheel(Int)
    case function(Int)
    /// A control character other than the ones named above (e.g. 0x0c for Ctrl-L).
    case control(UInt8)
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

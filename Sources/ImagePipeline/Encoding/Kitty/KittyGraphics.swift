import CellCanvas
import Synchronization

/// The kitty graphics protocol with Unicode placeholders: a thumbnail is transmitted to
/// the terminal once, by id, as a PNG (`a=T,U=1`: a virtual placement `columns` × `rows`
/// cells large), and the grid then shows it by drawing placeholder characters (U+10EEEE)
/// whose foreground colour is the image id. The placeholders are text, so they scroll,
/// clip, diff and are reused exactly like the symbol mosaic: the canvas and the presenter
/// need nothing new, and the terminal's own scrolling moves the pixels.
///
/// Each row's first cell names its row and column with two combining diacritics (kitty's
/// table); the cells after it name nothing, and the terminal counts them on from their left
/// neighbour, so a row is one interned cluster and `columns − 1` plain scalars.
/// Protocol: https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders
public enum KittyGraphics {
    /// U+10EEEE, the character a Unicode placeholder cell shows.
    public static let placeholder: UInt32 = 0x10EEEE

    /// Rows (and columns) a placement can name: the first entries of kitty's
    /// `rowcolumn-diacritics.txt`, combining marks of class 230 in that order.
    public static let diacritics: [UInt32] = [
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C, 0x0350, 0x0351,
        0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369, 0x036A, 0x036B, 0x036C, 0x036D,
        0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592, 0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599,
        0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1, 0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611,
        0x0612, 0x0613, 0x0614, 0x0615, 0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6,
        0x06D7, 0x06D8, 0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
        0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743, 0x0745, 0x0747,
        0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3, 0x0816, 0x0817, 0x0818, 0x0819,
        0x081B, 0x081C, 0x081D, 0x081E, 0x081F, 0x0820, 0x0821, 0x0822, 0x0823, 0x0825, 0x0826, 0x0827, 0x0829, 0x082A,
        0x082B, 0x082C, 0x082D,
    ]

    /// The largest image id a 24-bit foreground colour carries.
    public static let maximumID: UInt32 = 0xFF_FFFF

    private static let lastID = Atomic<UInt32>(0)

    /// A new image id (1 to ``maximumID``, then round again: by then the image that had it
    /// left the cache and the terminal long ago). Any thread.
    public static func nextID() -> UInt32 {
        lastID.add(1, ordering: .relaxed).newValue % maximumID + 1
    }

    /// The PNG a transmission carries: RGB when `image` is opaque, filtered and compressed
    /// at libpng's default (the bytes are what a slow terminal waits for, D-078).
    public static func png(of image: PixelBuffer) throws(ImageError) -> [UInt8] {
        try PNGCodec.encode(image, opaque: image.isOpaque)
    }

    /// The escape sequences that transmit `png` as image `id` with a virtual placement of
    /// `columns` × `rows` cells: base64 in chunks of 4,096 bytes (`m=1` on all but the
    /// last), quiet (`q=2`: no replies to read). Inside tmux each is wrapped for
    /// passthrough (tmux's `allow-passthrough on`).
    public static func transmission(png: [UInt8], id: UInt32, columns: Int, rows: Int, throughTmux: Bool = false) -> [UInt8] {
        chunked(png, control: "a=T,q=2,f=100,U=1,i=\(id),c=\(columns),r=\(rows)", throughTmux: throughTmux)
    }

    /// The escape sequences that transmit `png` as image `id` and place it nowhere (`a=t`):
    /// for direct placement, where ``placements(id:columns:rows:cellPixels:)`` show it.
    public static func transmissionOnly(png: [UInt8], id: UInt32) -> [UInt8] {
        chunked(png, control: "a=t,q=2,f=100,i=\(id)", throughTmux: false)
    }

    /// For direct placement (terminals with kitty graphics but no Unicode placeholders:
    /// kitty before 0.28, WezTerm, Konsole): for each row of cells, the command that places
    /// that row of image `id` at the cursor (`a=p`, its source rectangle, one row of
    /// `columns` cells), without moving the cursor (`C=1`), above the text (the default
    /// z-index: the markers under it must not show, D-041). One placement per row, like a
    /// sixel strip, so a row is placed, moved and clipped alone.
    public static func placements(id: UInt32, columns: Int, rows: Int, cellPixels: (width: Int, height: Int)) -> [[UInt8]] {
        (0..<rows).map { row in
            Array("\u{1B}_Ga=p,i=\(id),x=0,y=\(row * cellPixels.height),w=\(columns * cellPixels.width),h=\(cellPixels.height),c=\(columns),r=1,C=1,q=2\u{1B}\\".utf8)
        }
    }

    /// `png` in base64 chunks of 4,096 bytes, `control` on the first, `m=1` on all but the last.
    private static func chunked(_ png: [UInt8], control first: String, throughTmux: Bool) -> [UInt8] {
        let payload = base64(png)
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(offset + 4096, payload.count)
            let more = end < payload.count ? 1 : 0
            let control = offset == 0 ? "\(first),m=\(more)" : "m=\(more)"
            output += wrapped(Array("\u{1B}_G\(control);".utf8) + payload[offset..<end] + Array("\u{1B}\\".utf8), throughTmux: throughTmux)
            offset = end
        } while offset < payload.count
        return output
    }

    /// Deletes every image and placement (`d=A`): at exit, so the terminal keeps nothing.
    public static let deletionOfAll: [UInt8] = Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8)

    /// Deletes image `id` and frees its data in the terminal (`d=I`).
    public static func deletion(id: UInt32, throughTmux: Bool = false) -> [UInt8] {
        wrapped(Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8), throughTmux: throughTmux)
    }

    /// The cells that show image `id` over `columns` × `rows` cells, row by row.
    public static func placeholderCells(id: UInt32, columns: Int, rows: Int) -> [Cell] {
        precondition(rows <= diacritics.count && id > 0 && id <= maximumID, "KittyGraphics: \(rows) rows, id \(id)")
        let style = CellStyle(foreground: .rgb(id))
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            var first = String.UnicodeScalarView()
            first.append(Unicode.Scalar(placeholder)!)
            first.append(Unicode.Scalar(diacritics[row])!)
            first.append(Unicode.Scalar(diacritics[0])!)
            cells.append(Cell(Character(String(first)), style: style))
            for _ in 1..<max(columns, 1) { cells.append(Cell(scalar: placeholder, style: style)) }
        }
        return cells
    }

    /// What a terminal reads back from ``placeholderCells(id:columns:rows:)``: for each cell
    /// the image id (its foreground) and its row and column, the column counted on from the
    /// left neighbour when the cell names none (kitty's rule). Nil for a cell that is not a
    /// placeholder.
    public static func decode(_ cells: [Cell], columns: Int) -> [(id: UInt32, row: Int, column: Int)?] {
        var result: [(id: UInt32, row: Int, column: Int)?] = []
        for (index, cell) in cells.enumerated() {
            var scalars: [UInt32] = []
            cell.forEachScalar { scalars.append($0) }
            guard scalars.first == placeholder, case .rgb(let id) = cell.style.foreground else {
                result.append(nil)
                continue
            }
            let left = index % columns > 0 ? result[index - 1] : nil
            let row = scalars.count > 1 ? diacritics.firstIndex(of: scalars[1]) : (left?.id == id ? left?.row : 0)
            let column = scalars.count > 2 ? diacritics.firstIndex(of: scalars[2]) : (left?.id == id ? left.map { $0.column + 1 } : 0)
            result.append(row.flatMap { row in column.map { (id, row, $0) } })
        }
        return result
    }

    /// One graphics command as a terminal reads it: the control keys and the payload.
    public struct Command: Sendable, Equatable {
        /// The control keys and their values (`a=T`, `f=100`, …).
        public let control: [String: String]
        /// The decoded payload.
        public let payload: [UInt8]
    }

    /// The graphics commands in `stream` (tmux's passthrough wrapping undone), in order;
    /// what a terminal reads back from ``transmission(png:id:columns:rows:throughTmux:)`` and
    /// ``deletion(id:throughTmux:)``.
    public static func commands(in stream: [UInt8]) -> [Command] {
        var bytes: [UInt8] = []
        var index = 0
        let tmuxStart = Array("\u{1B}Ptmux;".utf8)
        while index < stream.count {
            if stream[index...].starts(with: tmuxStart) {
                // Inside: every ESC doubled, ended by a single ESC \.
                index += tmuxStart.count
                while index < stream.count {
                    if stream[index] == 0x1B, index + 1 < stream.count, stream[index + 1] == 0x1B {
                        bytes.append(0x1B)
                        index += 2
                    } else if stream[index] == 0x1B {
                        index += 2
                        break
                    } else {
                        bytes.append(stream[index])
                        index += 1
                    }
                }
            } else {
                bytes.append(stream[index])
                index += 1
            }
        }
        var commands: [Command] = []
        var start = 0
        while let open = bytes[start...].firstIndex(of: 0x1B), open + 2 < bytes.count, bytes[open + 1] == UInt8(ascii: "_"), bytes[open + 2] == UInt8(ascii: "G") {
            var end = open + 3
            while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            guard end + 1 < bytes.count else { break }
            let body = bytes[(open + 3)..<end]
            let split = body.firstIndex(of: UInt8(ascii: ";")) ?? body.endIndex
            var control: [String: String] = [:]
            for pair in body[body.startIndex..<split].split(separator: UInt8(ascii: ",")) {
                let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
                control[String(decoding: parts[0], as: UTF8.self)] = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
            }
            commands.append(Command(control: control, payload: split < body.endIndex ? Array(body[(split + 1)...]) : []))
            start = end + 2
        }
        return commands
    }

    /// Standard base64 with padding, written straight into its buffer (a thumbnail's PNG
    /// is 50–150 KB, encoded once per image on a worker).
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let count = (bytes.count + 2) / 3 * 4
        return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            alphabet.withUTF8Buffer { table in
                bytes.withUnsafeBufferPointer { input in
                    var i = 0, o = 0
                    while i + 3 <= input.count {
                        let value = Int(input[i]) << 16 | Int(input[i + 1]) << 8 | Int(input[i + 2])
                        output[o] = table[value >> 18]
                        output[o + 1] = table[value >> 12 & 63]
                        output[o + 2] = table[value >> 6 & 63]
                        output[o + 3] = table[value & 63]
                        i += 3
                        o += 4
                    }
                    let rest = input.count - i
                    if rest > 0 {
                        let value = Int(input[i]) << 16 | (rest == 2 ? Int(input[i + 1]) << 8 : 0)
                        output[o] = table[value >> 18]
                        output[o + 1] = table[value >> 12 & 63]
                        output[o + 2] = rest == 2 ? table[value >> 6 & 63] : UInt8(ascii: "=")
                        output[o + 3] = UInt8(ascii: "=")
                    }
                }
            }
            initialized = count
        }
    }

    /// tmux passes a sequence through to the outer terminal inside `ESC P tmux; … ESC \`,
    /// with every ESC of it doubled.
    static func wrapped(_ sequence: [UInt8], throughTmux: Bool) -> [UInt8] {
        guard throughTmux else { return sequence }
        var output = Array("\u{1B}Ptmux;".utf8)
        for byte in sequence {
            if byte == 0x1B { output.append(0x1B) }
            output.append(byte)
        }
        return output + Array("\u{1B}\\".utf8)
    }
}

/// Why ``ProgressiveDCDecoder`` gave an image up: the caller then decodes it with
/// TurboJPEG, which knows every JPEG and is lenient with broken ones.
struct JPEGDCFailure: Error {
    let reason: String
}

/// A JPEG Huffman table (ITU T.81 §F.2.2.3: codes of each length are consecutive, so one
/// `maxCode` per length decides where a code ends).
struct JPEGHuffmanTable {
    private var maxCode = [Int](repeating: -1, count: 17)
    private var minCode = [Int](repeating: 0, count: 17)
    private var firstValue = [Int](repeating: 0, count: 17)
    private let values: [UInt8]

    /// The table of a DHT segment: how many codes of each length 1...16, then their symbols.
    init(counts: ArraySlice<UInt8>, values: ArraySlice<UInt8>) throws(JPEGDCFailure) {
        precondition(counts.count == 16)
        self.values = Array(values)
        var code = 0, index = 0
        for (offset, count) in counts.enumerated() {
            let length = offset + 1
            firstValue[length] = index
            minCode[length] = code
            code += Int(count)
            index += Int(count)
            if count > 0 { maxCode[length] = code - 1 }
            // A complete prefix code never needs more codes of a length than it has room for.
            guard code <= 1 << length else { throw JPEGDCFailure(reason: "Huffman table has too many codes") }
            code <<= 1
        }
        guard index == values.count else { throw JPEGDCFailure(reason: "Huffman table counts do not match its symbols") }
    }

    /// The next symbol from `reader`.
    func decode(_ reader: inout JPEGEntropyReader) throws(JPEGDCFailure) -> Int {
        var code = 0
        for length in 1...16 {
            code = code << 1 | reader.bit()
            if code <= maxCode[length] {
                return Int(values[firstValue[length] + code - minCode[length]])
            }
        }
        throw JPEGDCFailure(reason: "no Huffman code matches")
    }
}

/// Reads the bits of one scan's entropy-coded data: stuffed bytes (`FF 00`) become `FF`, and
/// at a marker (or the end of the file) it serves zero bits, as libjpeg does, so a short scan
/// decodes to what it has.
struct JPEGEntropyReader {
    private let data: [UInt8]
    /// The next byte not yet in `buffer`.
    private(set) var position: Int
    private var buffer: UInt64 = 0
    private var bufferedBits = 0
    private var atMarker = false
    /// Zero bytes served because the data ran out before the scan did.
    private(set) var missingBytes = 0

    init(data: [UInt8], position: Int) {
        self.data = data
        self.position = position
    }

    mutating func bit() -> Int { bits(1) }

    /// `count` bits (at most 16), most significant first.
    mutating func bits(_ count: Int) -> Int {
        if bufferedBits < count { fill() }
        let value = Int(truncatingIfNeeded: buffer >> UInt64(64 - count))
        buffer <<= UInt64(count)
        bufferedBits -= count
        return value
    }

    /// A DC difference of `size` bits (T.81 §F.2.2.1, EXTEND).
    mutating func signedValue(size: Int) -> Int {
        guard size > 0 else { return 0 }
        let value = bits(size)
        return value < 1 << (size - 1) ? value - (1 << size) + 1 : value
    }

    private mutating func fill() {
        while bufferedBits <= 56 {
            var byte: UInt8 = 0
            if !atMarker, position < data.count {
                let current = data[position]
                if current != 0xFF {
                    byte = current
                    position += 1
                } else if position + 1 < data.count, data[position + 1] == 0x00 {
                    byte = 0xFF
                    position += 2
                } else {
                    atMarker = true
                }
            } else if !atMarker {
                atMarker = true
            }
            if atMarker { missingBytes += 1 }
            buffer |= UInt64(byte) << UInt64(56 - bufferedBits)
            bufferedBits += 8
        }
    }

    /// After a restart interval: the bits left are padding; the next thing must be RSTn.
    mutating func restart() throws(JPEGDCFailure) {
        buffer = 0
        bufferedBits = 0
        missingBytes = 0
        var at = position
        while at + 1 < data.count, data[at] == 0xFF, data[at + 1] == 0xFF { at += 1 }
        guard at + 1 < data.count, data[at] == 0xFF, (0xD0...0xD7).contains(data[at + 1]) else {
            throw JPEGDCFailure(reason: "restart marker missing")
        }
        position = at + 2
        atMarker = false
    }

    /// Where the marker after this scan starts (`data.count` when there is none).
    func nextMarker() -> Int { Self.nextMarker(in: data, from: position) }

    /// The first marker at or after `start` that is not stuffing, fill or a restart: where
    /// the entropy-coded data of a scan ends.
    static func nextMarker(in data: [UInt8], from start: Int) -> Int {
        var at = start
        while at + 1 < data.count {
            if data[at] == 0xFF {
                let next = data[at + 1]
                if next != 0x00, next != 0xFF, !(0xD0...0xD7).contains(next) { return at }
            }
            at += 1
        }
        return data.count
    }
}

import FeedFormat
import Testing

@Suite struct HTTPDateTests {
    @Test func theThreeFormsOfRFC9110() {
        // RFC 9110's own example, in each form.
        let seconds: Int64 = 784_111_777
        #expect(HTTPDate.format(seconds) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == seconds)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == seconds)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == seconds)
    }

    @Test func roundTripsOverCenturiesAndLeapDays() {
        for seconds: Int64 in [0, 951_782_400, 4_107_542_399, 1_709_164_800, 253_402_300_799] {
            #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds, "\(HTTPDate.format(seconds))")
        }
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    @Test func garbageIsNil() {
        for text in ["", "0", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
                     "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37 PST"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}

@Suite struct ByteRangeTests {
    @Test func oneRangeOfEachShape() {
        #expect(ByteRange(header: "bytes=0-99")?.resolved(length: 1000) == 0..<100)
        #expect(ByteRange(header: "bytes=900-")?.resolved(length: 1000) == 900..<1000)
        #expect(ByteRange(header: "bytes=-100")?.resolved(length: 1000) == 900..<1000)
        #expect(ByteRange(header: "bytes=990-2000")?.resolved(length: 1000) == 990..<1000, "clipped to the body")
        #expect(ByteRange(header: "bytes=-5000")?.resolved(length: 1000) == 0..<1000)
    }

    @Test func unsatisfiableAndMalformed() {
        #expect(ByteRange(header: "bytes=1000-")?.resolved(length: 1000) == nil, "416")
        for header in [nil, "", "bytes=", "bytes=a-b", "bytes=5-1", "bytes=0-1,5-6", "items=0-1", "bytes=-0", "bytes=--1"] as [String?] {
            #expect(ByteRange(header: header) == nil, "\(String(describing: header))")
        }
    }
}

import CoreKit
import Testing

@Suite struct MD5Tests {
    /// RFC 1321's test suite, and the example of the freedesktop thumbnail spec.
    @Test func rfc1321Vectors() {
        let vectors = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (text, digest) in vectors { #expect(MD5.hex(Array(text.utf8)) == digest, "\(text)") }
    }

    @Test func everyPaddingLengthAgreesWithMd5sum() {
        // 55, 56 and 64 bytes sit on the padding's edges; md5sum of "a" × n, computed once.
        #expect(MD5.hex(Array(repeating: UInt8(ascii: "a"), count: 55)) == "ef1772b6dff9a122358552954ad0df65")
        #expect(MD5.hex(Array(repeating: UInt8(ascii: "a"), count: 56)) == "3b0c8ac703f828b04c6c197006d17218")
        #expect(MD5.hex(Array(repeating: UInt8(ascii: "a"), count: 64)) == "014842d480b571495a4a0363793f7367")
    }
}

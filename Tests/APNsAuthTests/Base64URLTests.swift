import APNsAuth
import Foundation
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test func encodesWithoutPaddingInTheURLAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode(Array("a".utf8)) == "YQ")
        #expect(Base64URL.encode(Array("ab".utf8)) == "YWI")
        #expect(Base64URL.encode(Array("abc".utf8)) == "YWJj")
        #expect(Base64URL.encode([UInt8]()) == "")
    }

    @Test func decodesWithOrWithoutPadding() {
        #expect(Base64URL.decode("YQ") == Data("a".utf8))
        #expect(Base64URL.decode("YQ==") == Data("a".utf8))
        #expect(Base64URL.decode("YWI") == Data("ab".utf8))
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
    }

    @Test func rejectsOutsideTheAlphabet() {
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("YW J") == nil)
        #expect(Base64URL.decode("Y") == nil)
        #expect(Base64URL.decode("YQ===") == nil)
    }

    @Test func roundTripsEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes))
        }
    }
}

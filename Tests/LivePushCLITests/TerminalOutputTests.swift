import Foundation
import Testing

@testable import LivePushCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `livepush demo | head -3`: once the reader has gone, a line is dropped and reported, never a trap.
@Suite struct TerminalOutputTests {
    @Test func aLineReachesAnOpenReaderWhole() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = String(repeating: "🥚 Egghead ", count: 200)
        #expect(TerminalOutput.write(text + "\n", to: ends[1]))
        close(ends[1])
        let read = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false).readDataToEndOfFile()
        #expect(String(decoding: read, as: UTF8.self) == text + "\n")
    }

    @Test func aReaderThatHasGoneIsAnAnswerNotACrash() throws {
        signal(SIGPIPE, SIG_IGN)  // as SwiftNIO leaves the livepush process
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        close(ends[0])
        #expect(!TerminalOutput.write("seatPlayers\n", to: ends[1]))
        #expect(!TerminalOutput.write("and the next line\n", to: ends[1]))
    }
}

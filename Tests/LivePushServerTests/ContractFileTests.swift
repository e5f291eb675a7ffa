import Foundation
import LivePushTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API's contract is one checked-in file: what `GET /openapi.json` serves, byte for byte.
@Suite struct ContractFileTests {
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/APIContract/openapi.json")

    @Test func theServerServesTheCheckedInContractByteForByte() async throws {
        let checkedIn = try Data(contentsOf: Self.file)
        try await withSimulatedServer { apns, server in
            let (served, response) = try await URLSession.shared.data(from: server.url.appendingPathComponent("openapi.json"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(
                served == checkedIn,
                "GET /openapi.json differs from \(Self.file.lastPathComponent) (\(served.count) and \(checkedIn.count) bytes)")
        }
    }
}

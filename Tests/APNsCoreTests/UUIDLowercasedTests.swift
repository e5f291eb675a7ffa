import APNsCore
import Foundation
import Testing

struct UUIDLowercasedTests {
    @Test func aKnownIDIsWrittenInCanonicalLowercase() throws {
        let id = try #require(UUID(uuidString: "123E4567-E89B-12D3-A456-4266141740FF"))
        #expect(id.lowercased == "123e4567-e89b-12d3-a456-4266141740ff")
    }

    @Test func everyIDMatchesFoundationsFormInLowercase() {
        let ids = (0..<1_000).map { _ in UUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        for id in ids {
            #expect(id.lowercased == id.uuidString.lowercased())
            #expect(UUID(uuidString: id.lowercased) == id)
        }
    }

    @Test func theCanonicalFormIsReadInEitherCase() throws {
        let ids = (0..<1_000).map { _ in UUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        for id in ids {
            #expect(UUID(canonical: id.lowercased) == id)
            #expect(UUID(canonical: id.uuidString) == id)
        }
        let known = try #require(UUID(uuidString: "123E4567-E89B-12D3-A456-4266141740FF"))
        #expect(UUID(canonical: "123e4567-E89B-12d3-a456-4266141740ff") == known)
    }

    @Test(arguments: [
        "", "123e4567-e89b-12d3-a456-4266141740f", "123e4567-e89b-12d3-a456-4266141740fff", "123e4567e89b-12d3-a456-4266141740ff0",
        "123e4567-e89b-12d3-a456_4266141740ff", "123e4567-e89b-12d3-a456-4266141740fg", "{123e4567-e89b-12d3-a456-426614174}",
        "123e4567-e89b-12d3-a456-4266141740ff ", "123e4567-e89b-12d3-a456-4266141740é",
    ])
    func anythingElseIsNotAUUID(_ text: String) {
        #expect(UUID(canonical: text) == nil)
    }
}

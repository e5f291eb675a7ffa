import APIContract
import Foundation
import LiveActivity
import Testing

@testable import LivePushServer

/// The contract says, operation by operation, how large a body may be: what each route applies.
@Suite struct ContractBodyLimitTests {
    /// The body limit each route applies, by operation: 64 KiB, but for the two that take lists of many ids.
    static let limits = [
        AudienceStartBody.operation.operation.id: AudienceStartBody.maximumBytes,
        PushBatchBody.operation.operation.id: PushBatchBody.maximumBytes,
    ]

    @Test func everyOperationsAnswer413NamesTheLimitItsRouteApplies() throws {
        let document = try JSONValue.parse(Data(APIContract.text.utf8))
        let responses = try #require(document["components"]?["responses"])
        var checked: [String] = []
        for (_, item) in document["paths"]?.objectValue ?? [:] {
            for (_, operation) in item.objectValue ?? [:] {
                guard let id = operation["operationId"]?.stringValue, let answer = operation["responses"]?["413"] else { continue }
                let reference = answer["$ref"]?.stringValue
                let name = reference?.split(separator: "/").last.map(String.init)
                let described = try #require(name.flatMap { responses[$0]?["description"]?.stringValue } ?? answer["description"]?.stringValue)
                let limit = Self.limits[id] ?? JSONBody.maximumBytes
                #expect(described.contains("over \(limit) bytes"), "\(id): \(described)")
                checked.append(id)
            }
        }
        #expect(checked.count >= 20, "\(checked)")
        #expect(Set(Self.limits.keys).isSubset(of: Set(checked)))
    }
}

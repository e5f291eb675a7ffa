import APIContract
import Foundation
import LiveActivity
import Testing

/// The real contract: it loads, and its limits are what the validator applies. A limit edited in the text
/// is a limit changed, with nothing else to edit.
@Suite struct ContractDocumentTests {
    static func registration(bundleID: String) -> JSONValue {
        .object([
            "activityId": "rangers-1", "pushToken": "8f3a", "bundleId": .string(bundleID), "attributesType": "AdventureAttributes",
            "environment": "sandbox",
        ])
    }

    @Test func everyOperationOfTheServedDocumentLoads() {
        #expect(APIContract.shared.operations.count == 42)
        #expect(APIContract.shared.operation("registerActivity").bodyRequired)
    }

    @Test func aLimitEditedInTheDocumentIsTheLimitApplied() throws {
        let register = APIContract.shared.operation("registerActivity")
        try register.checkBody(Self.registration(bundleID: String(repeating: "b", count: 255)), now: Date())
        // The same document with BundleId's maxLength at 200: 201 characters are now refused.
        let bundleID = #""BundleId": {"#
        let start = try #require(APIContract.text.range(of: bundleID))
        let limit = try #require(APIContract.text.range(of: #""maxLength": 255"#, range: start.upperBound..<APIContract.text.endIndex))
        let edited = APIContract.text.replacingCharacters(in: limit, with: #""maxLength": 200"#)
        let stricter = try APIContract(text: edited).operation("registerActivity")
        try stricter.checkBody(Self.registration(bundleID: String(repeating: "b", count: 200)), now: Date())
        do throws(ContractViolation) {
            try stricter.checkBody(Self.registration(bundleID: String(repeating: "b", count: 201)), now: Date())
            Issue.record("201 characters passed a limit of 200")
        } catch {
            #expect(error.field == "bundleId" && error.rule == "maxLength" && error.message.contains("at most 200"), "\(error)")
        }
    }

    @Test func theDateWindowIsReadFromTheDocument() throws {
        let update = APIContract.shared.operation("updateActivity")
        let base: [String: JSONValue] = ["contentState": .object([:])]
        func staleDate(_ value: JSONValue) throws { try update.checkBody(.object(base.merging(["staleDate": value]) { $1 }), now: Date()) }
        try staleDate(978_307_200)
        #expect(throws: ContractViolation.self) { try staleDate(978_307_199) }
        #expect(throws: ContractViolation.self) { try staleDate(4_102_444_800) }
        try staleDate("+30m")
    }
}

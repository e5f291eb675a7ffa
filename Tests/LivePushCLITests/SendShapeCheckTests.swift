import Foundation
import LivePushTesting
import Testing

@testable import LivePushCLI

/// `livepush send --content-state-shape FILE`: the content-state is checked against the app's shape before
/// anything is sent, naming the field and the rule.
@Suite struct SendShapeCheckTests {
    static let shape = #"{"type":"object","properties":{"hp":{"type":"number"},"note":{"type":"string"}},"required":["hp"]}"#

    @Test func aContentStateTheShapeRefusesIsNotSent() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("shape.json")
            try Data(Self.shape.utf8).write(to: file)
            func send(_ state: String) throws -> SendCommand {
                try SendCommand.parse([
                    "--token", String(repeating: "ef", count: 32), "--bundle-id", "com.example.app", "--content-state", state,
                    "--content-state-shape", file.path, "--dry-run",
                ])
            }
            _ = try send(#"{"hp":1,"extra":true}"#).makeRequest(now: Date())
            let error = #expect(throws: CommandFailure.self) { try send(#"{"hP":1,"note":2}"#).makeRequest(now: Date()) }
            #expect(
                error?.description.contains("hp: missing (number expected); note: type: string expected, got number") == true,
                "\(String(describing: error))")
            let bad = directory.appendingPathComponent("bad.json")
            try Data(#"{"type":"object","additionalProperties":false}"#.utf8).write(to: bad)
            let shapeError = #expect(throws: CommandFailure.self) {
                try SendCommand.parse([
                    "--token", String(repeating: "ef", count: 32), "--bundle-id", "com.example.app", "--content-state", "{}",
                    "--content-state-shape", bad.path,
                ]).makeRequest(now: Date())
            }
            #expect(shapeError?.description.contains("additionalProperties: unknown") == true, "\(String(describing: shapeError))")
        }
    }
}

import Foundation

/// The ``ServerSecretStore`` operations.
extension SQLPushStore {
    package func serverSecret(named name: String, candidate: Data, at: Date) async throws(PushStoreError) -> Data {
        try Validation.identifier(name, field: "name", max: 100)
        guard candidate.count >= 32 else {
            throw .invalidInput(field: "candidate", rule: "has \(candidate.count) bytes; a secret has at least 32")
        }
        return try await run("serverSecret") { session throws(PushStoreError) in
            try await session.execute(
                "INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                [.text(name), .blob(candidate), .date(at)])
            guard let row = try await session.first("SELECT value FROM server_secrets WHERE name = ?", [.text(name)]) else {
                throw .database(detail: "the secret '\(name)' was stored but cannot be read back")
            }
            return try row.data("value")
        }
    }
}

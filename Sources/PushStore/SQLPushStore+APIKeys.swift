import Foundation

/// The ``APIKeyStore`` operations.
extension SQLPushStore {
    package func createAPIKey(name: String, scope: APIKeyScope, sha256Hash: String, at: Date) async throws(PushStoreError)
        -> APIKeyRecord
    {
        try Validation.identifier(name, field: "name", max: 100)
        let hash = try Validation.sha256Hex(sha256Hash, field: "sha256Hash")
        let record = APIKeyRecord(id: UUID(), name: name, scope: scope, sha256Hash: hash, createdAt: at, revokedAt: nil)
        return try await run("createApiKey") { session throws(PushStoreError) in
            if try await session.first("SELECT id FROM api_keys WHERE sha256_hash = ?", [.text(hash)]) != nil {
                throw .conflict(detail: "an API key with this hash is already stored")
            }
            try await session.execute(
                "INSERT INTO api_keys (id, name, scope, sha256_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                [.uuid(record.id), .text(name), .text(scope.rawValue), .text(hash), .date(at)])
            return record
        }
    }

    package func apiKey(byHash sha256Hash: String) async throws(PushStoreError) -> APIKeyRecord? {
        let hash = try Validation.sha256Hex(sha256Hash, field: "sha256Hash")
        return try await run("apiKeyByHash", readOnly: true) { session throws(PushStoreError) in
            guard let row = try await session.first("SELECT * FROM api_keys WHERE sha256_hash = ?", [.text(hash)])
            else { return nil }
            return try RowDecoding.apiKey(row)
        }
    }

    package func apiKeys() async throws(PushStoreError) -> [APIKeyRecord] {
        try await run("apiKeys", readOnly: true) { session throws(PushStoreError) in
            var records = [APIKeyRecord]()
            for row in try await session.query("SELECT * FROM api_keys ORDER BY created_at, id") {
                records.append(try RowDecoding.apiKey(row))
            }
            return records
        }
    }

    package func revokeAPIKey(id: UUID, at: Date) async throws(PushStoreError) -> APIKeyRecord {
        try await run("revokeApiKey") { session throws(PushStoreError) in
            let rows = try await session.query(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING *",
                [.date(at), .uuid(id)])
            guard let row = rows.first else { throw .notFound(kind: .apiKey, id: id.lowercased) }
            return try RowDecoding.apiKey(row)
        }
    }
}

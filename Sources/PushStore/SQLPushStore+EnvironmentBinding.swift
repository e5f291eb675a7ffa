import APNsCore
import Foundation

/// The ``EnvironmentBindingStore`` operations: one row in `store_environment` (its key is always 1).
extension SQLPushStore {
    package func bindEnvironment(_ environment: APNsEnvironment, at: Date) async throws(PushStoreError) -> EnvironmentBinding {
        try await run("bindEnvironment") { session throws(PushStoreError) in
            try await session.execute(
                "INSERT INTO store_environment (id, environment, recorded_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING",
                [.text(environment.rawValue), .date(at)])
            guard let binding = try await Self.environmentBinding(session) else {
                throw .database(detail: "the store's environment was recorded but cannot be read back")
            }
            return binding
        }
    }

    package func environmentBinding() async throws(PushStoreError) -> EnvironmentBinding? {
        try await run("environmentBinding", readOnly: true) { session throws(PushStoreError) in
            try await Self.environmentBinding(session)
        }
    }

    private static func environmentBinding(_ session: any SQLSession) async throws(PushStoreError) -> EnvironmentBinding? {
        guard let row = try await session.first("SELECT environment, recorded_at FROM store_environment WHERE id = 1") else {
            return nil
        }
        let text = try row.string("environment")
        guard let environment = APNsEnvironment(rawValue: text) else {
            throw .database(detail: "the store's recorded environment '\(text)' is neither sandbox nor production")
        }
        return EnvironmentBinding(environment: environment, recordedAt: try row.date("recorded_at"))
    }
}

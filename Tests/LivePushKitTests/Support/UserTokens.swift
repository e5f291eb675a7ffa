/// The app's user token, from its backend: counts how often it was asked and renewed.
actor UserTokens {
    private let backend: Backend
    private let userID: String
    private let ttl: Int
    private(set) var issued = 0
    private(set) var renewals = 0

    init(backend: Backend, userID: String, ttl: Int = 3600) {
        self.backend = backend
        self.userID = userID
        self.ttl = ttl
    }

    func token(renew: Bool) async throws -> String {
        issued += 1
        if renew { renewals += 1 }
        return try await backend.userToken(userID, ttl: ttl)
    }
}

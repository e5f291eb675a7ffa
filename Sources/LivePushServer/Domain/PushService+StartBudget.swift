import Foundation
import PushStore

/// The push-to-start budget per device, shared by every path that starts activities on its own (renewal,
/// Live Activity resources).
extension PushService {
    /// The tokens among `tokens` whose device got fewer than `pushToStartBudget` starts in the window.
    func withinStartBudget(_ tokens: [PushToStartTokenRecord], now: Date) async throws(DomainError) -> [PushToStartTokenRecord] {
        let since = now.addingTimeInterval(-settings.pushToStartWindow)
        let sent = try await stored { () async throws(PushStoreError) in
            try await store.startsSent(toPushToStartTokens: tokens.map(\.id), since: since)
        }
        return tokens.filter { sent[$0.id, default: 0] < settings.pushToStartBudget }
    }
}

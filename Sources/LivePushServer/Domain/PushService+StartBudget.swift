import Foundation
import PushStore

/// The push-to-start budget per device, shared by every path that starts activities on its own (renewal,
/// Live Activity resources).
extension PushService {
    /// The tokens among `tokens` whose device has room for one more start in the budget's window.
    func withinStartBudget(_ tokens: [PushToStartTokenRecord], now: Date) async throws(DomainError) -> [PushToStartTokenRecord] {
        let rule = settings.pushToStartBudget
        let sent = try await stored { () async throws(PushStoreError) in
            try await store.startsSent(toPushToStartTokens: tokens.map(\.id), since: rule.windowStart(at: now))
        }
        return rule.split(tokens, sent: sent).within
    }
}

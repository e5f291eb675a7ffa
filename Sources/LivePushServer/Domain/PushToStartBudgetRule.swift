import Foundation
import PushStore

/// The push-to-start budget per device, decided in one place for every path that sends starts the server
/// chooses on its own or in bulk (renewals, audience starts): at most `budget` starts per push-to-start
/// token in `window` seconds, since a device drops starts over its budget without telling anyone.
struct PushToStartBudgetRule: Sendable {
    /// Starts per push-to-start token in `window`.
    var budget: Int
    /// The window, in seconds.
    var window: TimeInterval

    /// Where the window ending at `now` begins: starts sent since then count.
    func windowStart(at now: Date) -> Date {
        now.addingTimeInterval(-window)
    }

    /// The tokens with room for one more start, given the starts each was sent in the window (`sent`, as
    /// the store counts them), and those over the budget.
    func split(_ tokens: [PushToStartTokenRecord], sent: [UUID: Int]) -> (within: [PushToStartTokenRecord], over: [PushToStartTokenRecord]) {
        var within: [PushToStartTokenRecord] = []
        var over: [PushToStartTokenRecord] = []
        for token in tokens {
            if hasRoom(sent[token.id, default: 0]) { within.append(token) } else { over.append(token) }
        }
        return (within, over)
    }

    /// Whether a token that was sent `sent` starts in the window may be sent one more.
    func hasRoom(_ sent: Int) -> Bool {
        sent < budget
    }
}

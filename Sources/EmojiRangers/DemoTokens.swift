/// What the players' apps got to the server through LivePushKit, as their reporters' journals say.
package struct DemoTokens: Sendable, Hashable {
    /// The simulated iPhones, each with its app's reporter.
    package var apps: Int
    /// Activities whose newest update token the server stored.
    package var activityTokens = 0
    /// Push-to-start tokens the server stored.
    package var pushToStartTokens = 0
    /// Reports still owed to the server.
    package var pending = 0
    /// Tokens the server refused for good.
    package var refused = 0

    package init(apps: Int) {
        self.apps = apps
    }

    /// `tokens: 8 activity + 4 push-to-start tokens uploaded by LivePushKit (4 iPhones), 0 pending, 0 failed`.
    package var line: String {
        "tokens: \(activityTokens) activity + \(pushToStartTokens) push-to-start tokens uploaded by LivePushKit (\(apps) iPhones), "
            + "\(pending) pending, \(refused) failed"
    }
}

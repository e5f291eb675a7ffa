@testable import LivePushKit

/// Three distinct push tokens, `a` (aaaa), `b` (bbbb) and `c` (cccc), for the tests of what the journal
/// owes the server, where the newer token replaces the older.
protocol SampleTokens {}

extension SampleTokens {
    var a: PushToken { PushToken(hex: "aaaa")! }
    var b: PushToken { PushToken(hex: "bbbb")! }
    var c: PushToken { PushToken(hex: "cccc")! }
}

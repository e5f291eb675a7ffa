/// The spectators' start: one audience start (`POST /v1/starts`) for every spectator, with the party's
/// broadcast channel as `inputPushChannel`, as `GET /v1/sends/{id}` reported it, and what the iPhones show.
package struct DemoAudienceStart: Sendable, Hashable {
    /// The spectators, one simulated iPhone each with its push-to-start token stored for its user.
    package var spectators: Int
    /// The send's id.
    package var sendID: String
    /// The send's counts once finished (or when the wait for it gave up).
    package var targeted = 0
    package var sent = 0
    package var skipped = 0
    package var failed = 0
    /// True when the send reported `finished`.
    package var finished = false
    /// The spectators' iPhones that show the started activity, subscribed to the channel.
    package var joined = 0

    /// What went wrong; empty when every spectator's iPhone joined the channel.
    package var problems: [String] {
        var out: [String] = []
        if !finished { out.append("the spectators' audience start did not finish (\(sent) of \(targeted) sent)") }
        if sent != spectators || skipped > 0 || failed > 0 {
            out.append("the spectators' audience start sent \(sent) of \(spectators) starts (\(skipped) skipped, \(failed) failed)")
        }
        if joined < spectators { out.append("\(joined) of \(spectators) spectators' iPhones show the activity joined to the channel") }
        return out
    }

    /// `1 audience start (POST /v1/starts, send 1a2b3c4d…): 300 targeted, 300 sent, 0 skipped, 0 failed; 300 iPhones joined the channel`.
    package var line: String {
        "1 audience start (POST /v1/starts, send \(sendID.prefix(8))…): \(targeted) targeted, \(sent) sent, \(skipped) skipped, \(failed) failed; "
            + "\(joined) iPhones joined the channel"
    }
}

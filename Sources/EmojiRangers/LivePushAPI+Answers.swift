import LivePushAPIClient

// What each operation the demo calls answers on success: the body of its documented success case.

extension Operations.MintAppToken.Output: APIOutput {
    /// A user token for a player's app.
    var answer: Components.Schemas.AppToken { get throws { try created.body.json } }
}

extension Operations.RegisterActivity.Output: APIOutput {
    /// The registered activity (the long adventure registers each hero's with its renewal plan).
    var answer: Components.Schemas.Activity { get throws { try created.body.json } }
}

extension Operations.UpdateGroup.Output: APIOutput {
    /// The group send, accepted.
    var answer: Components.Schemas.GroupSend { get throws { try accepted.body.json } }
}

extension Operations.EndGroup.Output: APIOutput {
    /// The group send, accepted.
    var answer: Components.Schemas.GroupSend { get throws { try accepted.body.json } }
}

extension Operations.UpdateActivity.Output: APIOutput {
    /// The pushes accepted.
    var answer: Components.Schemas.Accepted { get throws { try accepted.body.json } }
}

extension Operations.EndActivity.Output: APIOutput {
    /// The pushes accepted.
    var answer: Components.Schemas.Accepted { get throws { try accepted.body.json } }
}

extension Operations.GetGroupSend.Output: APIOutput {
    /// The group send's progress.
    var answer: Components.Schemas.GroupSend { get throws { try ok.body.json } }
}

extension Operations.GetActivity.Output: APIOutput {
    /// The activity with its delivery history.
    var answer: Components.Schemas.ActivityDetail { get throws { try ok.body.json } }
}

extension Operations.CreateChannel.Output: APIOutput {
    /// The channel created.
    var answer: Components.Schemas.Channel { get throws { try created.body.json } }
}

extension Operations.GetChannel.Output: APIOutput {
    /// The channel with its broadcasts.
    var answer: Components.Schemas.ChannelDetail { get throws { try ok.body.json } }
}

extension Operations.UpdateChannel.Output: APIOutput {
    /// The broadcast accepted.
    var answer: Components.Schemas.Accepted { get throws { try accepted.body.json } }
}

extension Operations.EndChannel.Output: APIOutput {
    /// The broadcast accepted.
    var answer: Components.Schemas.Accepted { get throws { try accepted.body.json } }
}

extension Operations.PutLiveActivity.Output: APIOutput {
    /// What the PUT did to the hero's quest.
    var answer: Components.Schemas.LiveActivityOutcome { get throws { try ok.body.json } }
}

extension Operations.GetLiveActivity.Output: APIOutput {
    /// The hero's quest as the server keeps it.
    var answer: Components.Schemas.LiveActivityResource { get throws { try ok.body.json } }
}

extension Operations.EndLiveActivity.Output: APIOutput {
    /// What the DELETE did to the hero's quest.
    var answer: Components.Schemas.LiveActivityOutcome { get throws { try ok.body.json } }
}

extension Operations.StorePushToStartToken.Output: APIOutput {
    /// A spectator's push-to-start token, stored for the spectator.
    var answer: Components.Schemas.PushToStartTokenStored { get throws { try ok.body.json } }
}

extension Operations.StartForAudience.Output: APIOutput {
    /// The audience start, accepted: its send, whose progress `GET /v1/sends/{id}` shows.
    var answer: Components.Schemas.GroupSend { get throws { try accepted.body.json } }
}

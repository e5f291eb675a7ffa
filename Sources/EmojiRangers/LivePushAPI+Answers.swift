import LivePushAPIClient

// What each operation the demo calls answers: its success body, or the demo's error for a documented
// refusal (status and the server's message) or an undocumented answer.

extension Operations.MintAppToken.Output: APIOutput {
    /// A user token for a player's app.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.AppToken {
        switch self {
        case .created(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.RegisterActivity.Output: APIOutput {
    /// The registered activity (the long adventure registers each hero's with its renewal plan).
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.Activity {
        switch self {
        case .created(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .contentTooLarge(let refusal as any APIRefusal), .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.UpdateGroup.Output: APIOutput {
    /// The group send, accepted.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.GroupSend {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.EndGroup.Output: APIOutput {
    /// The group send, accepted.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.GroupSend {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.UpdateActivity.Output: APIOutput {
    /// The pushes accepted.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.Accepted {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.EndActivity.Output: APIOutput {
    /// The pushes accepted.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.Accepted {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.GetGroupSend.Output: APIOutput {
    /// The group send's progress.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.GroupSend {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.GetActivity.Output: APIOutput {
    /// The activity with its delivery history.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.ActivityDetail {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.CreateChannel.Output: APIOutput {
    /// The channel created.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.Channel {
        switch self {
        case .created(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .contentTooLarge(let refusal as any APIRefusal), .badGateway(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.GetChannel.Output: APIOutput {
    /// The channel with its broadcasts.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.ChannelDetail {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.UpdateChannel.Output: APIOutput {
    /// The broadcast accepted.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.Accepted {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.EndChannel.Output: APIOutput {
    /// The broadcast accepted.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.Accepted {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.PutLiveActivity.Output: APIOutput {
    /// What the PUT did to the hero's quest.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.LiveActivityOutcome {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .contentTooLarge(let refusal as any APIRefusal), .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.GetLiveActivity.Output: APIOutput {
    /// The hero's quest as the server keeps it.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.LiveActivityResource {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.EndLiveActivity.Output: APIOutput {
    /// What the DELETE did to the hero's quest.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.LiveActivityOutcome {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .contentTooLarge(let refusal as any APIRefusal), .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.StorePushToStartToken.Output: APIOutput {
    /// A spectator's push-to-start token, stored for the spectator.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.PushToStartTokenStored {
        switch self {
        case .ok(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .conflict(let refusal as any APIRefusal), .tooManyRequests(let refusal as any APIRefusal),
            .contentTooLarge(let refusal as any APIRefusal), .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

extension Operations.StartForAudience.Output: APIOutput {
    /// The audience start, accepted: its send, whose progress `GET /v1/sends/{id}` shows.
    func answer(_ call: APICall) async throws(DemoError) -> Components.Schemas.GroupSend {
        switch self {
        case .accepted(let answer): return try call.json { try answer.body.json }
        case .badRequest(let refusal as any APIRefusal), .unauthorized(let refusal as any APIRefusal), .forbidden(let refusal as any APIRefusal),
            .tooManyRequests(let refusal as any APIRefusal), .notFound(let refusal as any APIRefusal), .conflict(let refusal as any APIRefusal),
            .unprocessableContent(let refusal as any APIRefusal), .contentTooLarge(let refusal as any APIRefusal),
            .serviceUnavailable(let refusal as any APIRefusal):
            throw call.refused(refusal)
        case .undocumented(let status, let payload): throw await call.undocumented(status, payload)
        }
    }
}

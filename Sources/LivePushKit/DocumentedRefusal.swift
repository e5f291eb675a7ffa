import LivePushAPIClient

/// An error answer the contract documents, and what it means for an upload: each status is read here
/// once, for every operation that may answer it.
protocol DocumentedRefusal {
    var outcome: UploadOutcome { get }
}

extension Components.Responses.BadRequest: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.refused(400) { try body.json } }
}

extension Components.Responses.Unauthorized: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.unauthorized { try body.json } }
}

extension Components.Responses.Forbidden: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.refused(403) { try body.json } }
}

extension Components.Responses.NotFound: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.unknown { try body.json } }
}

extension Components.Responses.Conflict: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.refused(409) { try body.json } }
}

extension Components.Responses.ContentTooLarge: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.refused(413) { try body.json } }
}

extension Components.Responses.TooManyRequests: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.tooManyRequests(self) }
}

extension Components.Responses.Unavailable: DocumentedRefusal {
    var outcome: UploadOutcome { APIAnswer.unavailable() }
}

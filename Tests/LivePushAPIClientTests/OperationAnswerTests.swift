import Foundation
import LivePushAPIClient
import OpenAPIRuntime
import Testing

/// `OperationAnswer` reads any operation's output the same way: a documented error with its status and
/// body, an undocumented status, or the operation's own answer.
@Suite struct OperationAnswerTests {
    static let refusal = Components.Schemas._Error(error: .init(field: "pushToken", rule: "hex", message: "not hex"))

    @Test func aDocumentedErrorGivesItsStatusAndBody() throws {
        let output = Operations.RotatePushToken.Output.conflict(.init(body: .json(Self.refusal)))
        guard case .error(let error) = OperationAnswer(output) else {
            Issue.record("a 409 read as something else")
            return
        }
        #expect(type(of: error).status == 409)
        #expect(try error.errorBody == Self.refusal)
    }

    @Test func aRefusalWithHeadersIsAnErrorToo() {
        let output = Operations.RotatePushToken.Output.tooManyRequests(.init(headers: .init(retryAfter: 5), body: .json(Self.refusal)))
        guard case .error(let error) = OperationAnswer(output) else {
            Issue.record("a 429 read as something else")
            return
        }
        #expect(type(of: error).status == 429)
    }

    @Test func anUndocumentedStatusKeepsItsStatus() {
        let output = Operations.RotatePushToken.Output.undocumented(statusCode: 418, UndocumentedPayload())
        guard case .undocumented(let status, _) = OperationAnswer(output) else {
            Issue.record("an undocumented 418 read as something else")
            return
        }
        #expect(status == 418)
    }

    @Test func theSuccessIsTheOutputItself() throws {
        let token = Components.Schemas.AppToken(token: "t", userId: "u", expiresAt: Date(timeIntervalSince1970: 0))
        let output = Operations.MintAppToken.Output.created(.init(body: .json(token)))
        guard case .expected(let expected) = OperationAnswer(output) else {
            Issue.record("a 201 read as an error")
            return
        }
        #expect(try expected.created.body.json == token)
    }
}

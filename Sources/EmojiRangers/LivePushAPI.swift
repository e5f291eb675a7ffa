import Foundation
import HTTPTypes
import LivePushAPIClient
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Client {
    /// The generated client of the LivePush API at `baseURL` (`http://127.0.0.1:PORT`), over `session`, holding one key.
    static func livePush(baseURL: String, key: String, session: URLSession) throws(DemoError) -> Client {
        guard let url = URL(string: baseURL) else {
            throw .unreachable(method: "GET", path: "/", detail: "not a URL: \(baseURL)")
        }
        return Client(
            serverURL: url, transport: URLSessionTransport(configuration: .init(session: session)),
            middlewares: [RequestContractCheck(), BearerAuthentication(key)])
    }
}

/// One request of the demo to the API, named as its errors name it (`POST /v1/activities`): runs the
/// generated client's operation and turns what went wrong into a ``DemoError``.
struct APICall: Sendable {
    var method: String
    var path: String

    init(_ method: String, _ path: String) {
        self.method = method
        self.path = path
    }

    /// Calls `operation` and returns its success answer. A failed transport is
    /// ``DemoError/unreachable(method:path:detail:)``; a refusal, an undocumented answer, or one that does not
    /// decode as the contract says is ``DemoError/api(method:path:status:message:)``.
    func run<Output: APIOutput>(_ operation: () async throws -> Output) async throws(DemoError) -> Output.Answer {
        let output: Output
        do {
            output = try await operation()
        } catch let error as ClientError {
            if let response = error.response {
                throw .api(
                    method: method, path: path, status: response.status.code,
                    message: "the answer is not what the contract describes: \(error.underlyingError)")
            }
            throw .unreachable(method: method, path: path, detail: error.underlyingError.localizedDescription)
        } catch {
            throw .unreachable(method: method, path: path, detail: error.localizedDescription)
        }
        switch OperationAnswer(output) {
        case .expected(let output): return try json { try output.answer }
        case .error(let error): throw refused(error)
        case .undocumented(let status, let payload): throw await undocumented(status, payload)
        }
    }

    /// The documented refusal `error` as the demo reports it: its status and the server's message.
    func refused(_ error: any APIErrorResponse) -> DemoError {
        let message: String
        do {
            message = try error.errorBody.error.message
        } catch {
            message = "the error answer is not what the contract describes: \(error)"
        }
        return .api(method: method, path: path, status: type(of: error).status, message: message)
    }

    /// An answer the contract does not document: its status and the server's message (or the body's start).
    func undocumented(_ status: Int, _ payload: UndocumentedPayload) async -> DemoError {
        var data = Data()
        if let body = payload.body {
            data = (try? await Data(collecting: body, upTo: 64 * 1024)) ?? Data()
        }
        let message =
            (try? JSONDecoder().decode(Components.Schemas._Error.self, from: data))?.error.message
            ?? String(decoding: data.prefix(500), as: UTF8.self)
        return .api(method: method, path: path, status: status, message: message)
    }

    /// The body of a success answer, decoded as the contract says.
    func json<Body>(_ body: () throws -> Body) throws(DemoError) -> Body {
        do {
            return try body()
        } catch {
            throw .api(method: method, path: path, status: 0, message: "the answer is not what the contract describes: \(error)")
        }
    }
}

/// What an operation of the generated client answers on success (its `Operations.X.Output`): the body of
/// its documented success case, read with the output's own accessor (which throws for any other case). The
/// refusals and undocumented answers of every operation are read once, in ``APICall/run(_:)``.
protocol APIOutput: Sendable {
    associatedtype Answer: Sendable
    var answer: Answer { get throws }
}

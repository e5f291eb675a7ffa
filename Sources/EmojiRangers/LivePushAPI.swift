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
        return try await output.answer(self)
    }

    /// The documented refusal `answer` as the demo reports it: its status and the server's message.
    func refused(_ answer: any APIRefusal) -> DemoError {
        .api(method: method, path: path, status: type(of: answer).status, message: answer.message)
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

/// What an operation of the generated client answered (its `Operations.X.Output`): the success body, or
/// the ``DemoError`` the demo reports.
protocol APIOutput: Sendable {
    associatedtype Answer: Sendable
    func answer(_ call: APICall) async throws(DemoError) -> Answer
}

/// A documented error answer of the API: its status and the contract's error body.
protocol APIRefusal: Sendable {
    static var status: Int { get }
    /// The server's message (`error.message`), or why there is none.
    var message: String { get }
}

extension APIRefusal {
    /// The message of `error`, the contract's error body, or what stood in its way.
    static func message(of error: () throws -> Components.Schemas._Error) -> String {
        do {
            return try error().error.message
        } catch {
            return "the error answer is not what the contract describes: \(error)"
        }
    }
}

extension Components.Responses.BadRequest: APIRefusal {
    static var status: Int { 400 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.Unauthorized: APIRefusal {
    static var status: Int { 401 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.Forbidden: APIRefusal {
    static var status: Int { 403 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.NotFound: APIRefusal {
    static var status: Int { 404 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.Conflict: APIRefusal {
    static var status: Int { 409 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.ContentTooLarge: APIRefusal {
    static var status: Int { 413 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.ContentTooLargeMiB: APIRefusal {
    static var status: Int { 413 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.Undecodable: APIRefusal {
    static var status: Int { 422 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.TooManyRequests: APIRefusal {
    static var status: Int { 429 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.BadGateway: APIRefusal {
    static var status: Int { 502 }
    var message: String { Self.message { try body.json } }
}

extension Components.Responses.Unavailable: APIRefusal {
    static var status: Int { 503 }
    var message: String { Self.message { try body.json } }
}

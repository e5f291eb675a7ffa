import OpenAPIRuntime

/// A documented error answer of the API (a `Components.Responses` error): its status and the contract's
/// error body (`error.field`, `error.rule`, `error.message`).
public protocol APIErrorResponse: Sendable {
    /// The answer's HTTP status.
    static var status: Int { get }
    /// The contract's error body; throws when the answer's body is not it.
    var errorBody: Components.Schemas._Error { get throws }
}

extension Components.Responses.BadRequest: APIErrorResponse {
    public static var status: Int { 400 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Unauthorized: APIErrorResponse {
    public static var status: Int { 401 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Forbidden: APIErrorResponse {
    public static var status: Int { 403 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.NotFound: APIErrorResponse {
    public static var status: Int { 404 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.MethodNotAllowed: APIErrorResponse {
    public static var status: Int { 405 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Conflict: APIErrorResponse {
    public static var status: Int { 409 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.ContentTooLarge: APIErrorResponse {
    public static var status: Int { 413 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.ContentTooLargeMiB: APIErrorResponse {
    public static var status: Int { 413 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Undecodable: APIErrorResponse {
    public static var status: Int { 422 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.TooManyRequests: APIErrorResponse {
    public static var status: Int { 429 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.BadGateway: APIErrorResponse {
    public static var status: Int { 502 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Unavailable: APIErrorResponse {
    public static var status: Int { 503 }
    public var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

/// What an operation of the generated client answered (its `Operations.X.Output`), read the same way for
/// every operation: a documented error, a status the contract does not list, or the operation's own answer.
///
/// Swift cannot name "the case that holds an error response" across the generated `Output` enums, so
/// the case is told by its value's type instead of by a `switch` written again for each operation:
///
///     switch OperationAnswer(try await client.registerActivity(body: .json(registration))) {
///     case .expected(let output): return try output.created.body.json
///     case .error(let error): print(type(of: error).status, try error.errorBody.error.message)
///     case .undocumented(let status, _): print("undocumented \(status)")
///     }
public enum OperationAnswer<Output: Sendable>: Sendable {
    /// Neither an error nor undocumented: the operation's success (read it with the output's own accessor,
    /// such as `try output.created`, which throws for any other case).
    case expected(Output)
    /// A documented error answer.
    case error(any APIErrorResponse)
    /// A status the contract does not list for the operation, with its body.
    case undocumented(statusCode: Int, UndocumentedPayload)

    public init(_ output: Output) {
        // A generated Output is an enum whose every case holds one value; `undocumented` holds two.
        let value = Mirror(reflecting: output).children.first?.value
        if let error = value as? any APIErrorResponse {
            self = .error(error)
        } else if let (status, payload) = value as? (statusCode: Int, UndocumentedPayload) {
            self = .undocumented(statusCode: status, payload)
        } else {
            self = .expected(output)
        }
    }
}

import Hummingbird

/// Every answer of the server says `X-Content-Type-Options: nosniff` (a browser never reads a JSON answer
/// or the metrics as a script or a page) and `Cache-Control: no-store` (no answer, which may hold a
/// token or a user's data, is kept by a browser or a proxy). An answer that set its own keeps it.
struct NoSniffNoStore<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.xContentTypeOptions] == nil { response.headers[.xContentTypeOptions] = "nosniff" }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

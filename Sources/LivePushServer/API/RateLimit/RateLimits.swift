/// The settings of the rate-limit middlewares: per principal on each audience's routes, shared by the
/// installations of one app key, and of failed requests per client address.
struct RateLimits: Sendable {
    /// Requests a minute, with bursts up to `burst` at once; a `perMinute` of 0 is no limit.
    struct Rate: Sendable {
        var perMinute: Int
        var burst: Int
    }

    /// Per app principal (user, installation, app key) on the app routes.
    var app: Rate
    /// All the installations one app key opened, together.
    var installations: Rate
    /// Per key on the backend routes.
    var backend: Rate
    /// Per operator key on the console's routes.
    var `operator`: Rate
    /// Failed requests of one client address, before any credential is looked up.
    var addressFailures: Rate
}

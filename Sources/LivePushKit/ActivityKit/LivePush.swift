// LIVEPUSH_ACTIVITYKIT_INTERFACE: Linux CI compiles this file a second time, against a mirror of the
// documented ActivityKit signatures (Tests/ActivityKitInterface). On Linux the LivePushKit target itself
// leaves it out even when that mirror happens to be importable from the shared build folder.
#if canImport(ActivityKit) && (os(iOS) || LIVEPUSH_ACTIVITYKIT_INTERFACE)
    import ActivityKit
    import Foundation

    #if LIVEPUSH_ACTIVITYKIT_INTERFACE
        import LivePushKit  // compiled into the test target, outside LivePushKit
    #endif

    /// The app's entry points on a device: follow an attributes type's Live Activities and report them.
    ///
    /// ```swift
    /// let reporter = try LivePushReporter(configuration)
    /// // once, for the app's lifetime (SwiftUI: .task { … } on the root view):
    /// async let sending: Void = reporter.run()
    /// await LivePush.track(AdventureAttributes.self, reporter: reporter) { [$0.partyID] }
    /// ```
    @available(iOS 16.2, *)
    public enum LivePush {
        /// Follows every Live Activity of `Attributes` and hands its tokens and states to `reporter`, until
        /// the calling task is cancelled: the activities already running (also those started by push while
        /// the app was not running), each new one (`activityUpdates`), their update tokens
        /// (`pushToken`, `pushTokenUpdates`), their ends (`activityStateUpdates`), the push-to-start token
        /// (`pushToStartTokenUpdates`, and the `pushToStartToken` property read now and on every return to
        /// the foreground, iOS 17.2) and `ActivityAuthorizationInfo`.
        ///
        /// - Parameters:
        ///   - attributes: The app's `ActivityAttributes` type; its name is the `attributesType` the server stores.
        ///   - reporter: Where events go: a ``LivePushReporter``.
        ///   - groups: The server groups an activity joins (e.g. its party), from its attributes. Each must be
        ///     granted to the app's credential: your backend lists them (ids, or prefixes ending in `*`) when
        ///     it mints the user token (`POST /v1/users/{userId}/app-tokens`, `"groups"`); installation
        ///     tokens grant none. A registration naming another group is refused (403 `groupNotGranted`)
        ///     and shows in ``LivePushReporter/status``.
        @MainActor
        public static func track<Attributes: ActivityAttributes & Sendable>(
            _ attributes: Attributes.Type, reporter: some LiveActivityEventSink,
            groups: @escaping @MainActor (Attributes) -> [String] = { _ in [] }
        ) async {
            await ActivityTracker<Attributes>(reporter: reporter, groups: groups).run()
        }

        /// Starts a Live Activity that the server updates by push (`pushType: .token`). ``track(_:reporter:groups:)``
        /// reports its token once ActivityKit hands it over.
        @MainActor
        public static func request<Attributes: ActivityAttributes & Sendable>(
            attributes: Attributes, content: ActivityContent<Attributes.ContentState>
        ) throws -> Activity<Attributes> {
            try Activity<Attributes>.request(attributes: attributes, content: content, pushType: .token)
        }
    }
#endif

// Compiled on iOS, and on Linux against the ActivityKit mirror only (see LivePush.swift).
#if canImport(ActivityKit) && (os(iOS) || LIVEPUSH_ACTIVITYKIT_INTERFACE)
    import ActivityKit
    import Foundation
    import LiveActivity

    #if LIVEPUSH_ACTIVITYKIT_INTERFACE
        import LivePushKit  // compiled into the test target, outside LivePushKit
    #endif
    #if canImport(UIKit)
        import UIKit
    #endif

    /// Follows one attributes type's activities on the main actor, where ActivityKit's objects (not
    /// Sendable) stay; only tokens, ids and states travel to the reporter.
    @available(iOS 16.2, *)
    @MainActor
    final class ActivityTracker<Attributes: ActivityAttributes & Sendable> {
        private let reporter: any LiveActivityEventSink
        private let groups: @MainActor (Attributes) -> [String]
        private let attributesType = String(describing: Attributes.self)
        /// The activities followed, by id.
        private var followed: [String: Activity<Attributes>] = [:]

        init(reporter: any LiveActivityEventSink, groups: @escaping @MainActor (Attributes) -> [String]) {
            self.reporter = reporter
            self.groups = groups
        }

        func run() async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.followAuthorization() }
                group.addTask { await self.followPushToStartStream() }
                group.addTask { await self.readPushToStartOnForeground() }
                // Subscribe before reading the running activities, so that none starts unseen in between.
                let updates = Activity<Attributes>.activityUpdates
                for activity in Activity<Attributes>.activities { self.follow(activity, in: &group) }
                for await activity in updates { self.follow(activity, in: &group) }
                await group.waitForAll()
            }
        }

        private func follow(_ activity: Activity<Attributes>, in group: inout TaskGroup<Void>) {
            guard followed[activity.id] == nil else { return }
            followed[activity.id] = activity
            let id = activity.id
            group.addTask { await self.followTokens(of: id) }
            group.addTask { await self.followState(of: id) }
        }

        /// The activity's token now and every rotation.
        private func followTokens(of id: String) async {
            guard let activity = followed[id] else { return }
            let joined = groups(activity.attributes)
            let key = Self.liveActivityKey(of: activity.attributes)
            // The ContentState's shape, from the activity's own state: the server refuses updates it could not decode.
            if let shape = try? ContentStateShape(deriving: activity.content.state) {
                await reporter.contentStateShape(shape, attributesType: attributesType)
            }
            if let token = activity.pushToken {
                await reporter.activityToken(PushToken(token), activityID: id, attributesType: attributesType, groups: joined, liveActivityKey: key)
            }
            for await token in activity.pushTokenUpdates {
                await reporter.activityToken(PushToken(token), activityID: id, attributesType: attributesType, groups: joined, liveActivityKey: key)
            }
        }

        /// The `livePushKey` of the attributes, when the app's `ActivityAttributes` declares it: the server
        /// puts it in the starts of its Live Activity resources.
        static func liveActivityKey(of attributes: Attributes) -> String? {
            guard let data = try? JSONEncoder().encode(attributes),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return nil }
            return object["livePushKey"] as? String
        }

        /// Ends and dismissals: the activity's state now and every change.
        private func followState(of id: String) async {
            guard let activity = followed[id] else { return }
            if await report(activity.activityState, of: id) { return }
            for await state in activity.activityStateUpdates {
                if await report(state, of: id) { return }
            }
        }

        /// Reports an end or a dismissal; true once the activity is gone.
        private func report(_ state: ActivityState, of id: String) async -> Bool {
            switch state {
            case .ended:
                await reporter.activityEnded(activityID: id, .ended(dismissalDate: nil))
                return false
            case .dismissed:
                await reporter.activityEnded(activityID: id, .dismissed)
                followed[id] = nil
                return true
            default:
                return false
            }
        }

        private func followPushToStartStream() async {
            guard #available(iOS 17.2, *) else { return }
            for await token in Activity<Attributes>.pushToStartTokenUpdates {
                await reporter.pushToStartToken(PushToken(token), attributesType: attributesType, source: .stream)
            }
        }

        /// The stream does not yield on some launches; the property has the token then. Read now and on
        /// every return to the foreground.
        private func readPushToStartOnForeground() async {
            #if canImport(UIKit)
                // Observe first, then read: a return to the foreground in between is not missed.
                let foreground = NotificationCenter.default.notifications(named: UIApplication.willEnterForegroundNotification)
                await readPushToStartProperty()
                for await _ in foreground {
                    await readPushToStartProperty()
                    await reportAuthorization()
                }
            #else
                await readPushToStartProperty()
            #endif
        }

        private func readPushToStartProperty() async {
            guard #available(iOS 17.2, *), let token = Activity<Attributes>.pushToStartToken else { return }
            await reporter.pushToStartToken(PushToken(token), attributesType: attributesType, source: .property)
        }

        private func followAuthorization() async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.followEnablement() }
                group.addTask { await self.followFrequentPushes() }
            }
        }

        // Each loop reads after it subscribed, so that a change in between is not missed. (The sequences
        // stay in the task that made them: ActivityAuthorizationInfo and its sequences are not Sendable.)
        private func followEnablement() async {
            let updates = ActivityAuthorizationInfo().activityEnablementUpdates
            await reportAuthorization()
            for await _ in updates { await reportAuthorization() }
        }

        private func followFrequentPushes() async {
            let updates = ActivityAuthorizationInfo().frequentPushEnablementUpdates
            await reportAuthorization()
            for await _ in updates { await reportAuthorization() }
        }

        private func reportAuthorization() async {
            let info = ActivityAuthorizationInfo()
            await reporter.authorization(
                ActivityAuthorization(activitiesEnabled: info.areActivitiesEnabled, frequentPushesEnabled: info.frequentPushesEnabled))
        }
    }
#endif

import APNsCore
import Foundation
import Hummingbird

/// The backend's routes for its users' app tokens (behind a backend key): mint one for a user, withdraw a
/// user's tokens (sign-out). Each reads its input and calls `IdentityService`.
struct UserTokenRoutes: Sendable {
    let identity: IdentityService
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (identity, clock) = (identity, clock)
        // The backend vouches for its user: the app acts with this token, for this user only.
        let mint = ContractRoute("mintAppToken")
        routes.post("users/:userId/app-tokens") { request, context -> Response in
            let userID = try mint.pathID("userId", context)
            let body = try await mint.body(Schemas.AppTokenRequest.self, request, now: clock.now())
            let issued = try await identity.userToken(
                for: userID, lifetime: body.ttlSeconds.map(TimeInterval.init), groups: body.groups ?? [],
                mintedBy: try context.requireIdentity().keyID)
            return APIResponse.json(
                Schemas.AppToken(token: issued.token, userId: userID, expiresAt: issued.expiresAt, groups: issued.groups), status: .created)
        }
        // Withdraws the user's (or an installation's) app tokens without signing anyone else out.
        let signOut = ContractRoute("signOutUser")
        routes.post("users/:userId/sign-out") { request, context -> Response in
            let userID = try signOut.pathID("userId", context)
            _ = try await signOut.body(Schemas.InstallationRequest.self, request, now: clock.now())
            let withdrawal = try await identity.signOut(userID)
            return APIResponse.json(Schemas.SignOut(userId: userID, pushToStartTokensReleased: withdrawal.releasedPushToStartTokens))
        }
    }
}

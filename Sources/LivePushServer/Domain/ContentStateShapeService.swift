import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// The shapes of apps' ContentStates: set by a backend (`PUT`, which replaces), learnt from registrations.
///
/// One shape per app and attributes type, not one per app version: a send does not know which version each
/// device runs, and what it must satisfy is every version still installed. So a registration's shape is merged
/// into the stored one (``ContentStateShape/merged(with:)``): what the server accepts then decodes in every
/// version that registered. A version whose shape contradicts the stored one (a property's type changed) does
/// not change it: the registration succeeds, the conflict is logged, and a backend settles it with `PUT`.
struct ContentStateShapeService: Sendable {
    let store: any ContentStateShapeStore
    let clock: any WallClock
    let logger: Logger

    /// Stores a backend's shape, replacing the stored one.
    func put(bundleID: String, attributesType: String, json: JSONValue) async throws(DomainError) -> StoredContentStateShape {
        let shape: ContentStateShape
        do {
            shape = try ContentStateShape(json: json)
        } catch {
            throw .invalid(error.path, error.rule, error.message)
        }
        let stored = try await stored { () async throws(PushStoreError) in
            try await store.putContentStateShape(
                StoredContentStateShape(bundleID: bundleID, attributesType: attributesType, shape: shape, source: .backend, updatedAt: clock.now()))
        }
        logger.info("content-state shape stored", metadata: ["bundleId": "\(bundleID)", "attributesType": "\(attributesType)", "by": "backend"])
        return stored
    }

    func shape(bundleID: String, attributesType: String) async throws(DomainError) -> StoredContentStateShape {
        let stored = try await stored { () async throws(PushStoreError) in
            try await store.contentStateShape(bundleID: bundleID, attributesType: attributesType)
        }
        guard let stored else {
            throw .notFound(
                "attributesType",
                "no content-state shape is stored for \(attributesType) of \(bundleID): sends to it are not checked; PUT one, or register an activity with LivePushKit"
            )
        }
        return stored
    }

    /// Merges an app's shape into the stored one (compare-and-set, read again when another write came first).
    /// Returns the stored shape after the merge; nil when the shapes conflict (the stored one is kept).
    @discardableResult
    func learn(_ shape: ContentStateShape, bundleID: String, attributesType: String) async throws(DomainError) -> StoredContentStateShape? {
        for _ in 0..<4 {
            let current = try await stored { () async throws(PushStoreError) in
                try await store.contentStateShape(bundleID: bundleID, attributesType: attributesType)
            }
            let merged: ContentStateShape
            do {
                merged = try current.map { (current) throws(ContentStateShapeConflict) in try current.shape.merged(with: shape) } ?? shape
            } catch {
                logger.warning(
                    "an app version's content-state shape contradicts the stored one; kept the stored one",
                    metadata: ["bundleId": "\(bundleID)", "attributesType": "\(attributesType)", "conflict": "\(error)"])
                return nil
            }
            if let current, current.shape == merged { return current }
            let candidate = StoredContentStateShape(
                bundleID: bundleID, attributesType: attributesType, shape: merged, source: current?.source ?? .app, updatedAt: clock.now())
            let written = try await stored { () async throws(PushStoreError) in
                try await store.replaceContentStateShape(candidate, ifRevision: current?.revision)
            }
            if let written {
                logger.info(
                    "content-state shape learnt",
                    metadata: ["bundleId": "\(bundleID)", "attributesType": "\(attributesType)", "revision": "\(written.revision)"])
                return written
            }
        }
        throw DomainError(kind: .unavailable, subject: nil, rule: "unavailable", message: "the content-state shape kept changing while it was merged")
    }
}

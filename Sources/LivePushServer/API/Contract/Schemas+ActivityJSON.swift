import Foundation
import LiveActivity

/// An answer ``JSONValueEncoder`` takes whole, written by hand as the encoder would write it: for answers
/// written on a hot path, where the encoder's containers cost more than the answer's own work.
protocol JSONValueRepresentable {
    var jsonValue: JSONValue { get }
}

extension Schemas.Activity: JSONValueRepresentable {
    /// As the generated `Encodable` conformance: every member by its coding key, an absent optional left out,
    /// dates as ISO 8601 text. Every registration answers with one (SchemasTests compare it with JSONEncoder).
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "activityId": .string(activityId), "pushToken": .string(pushToken), "bundleId": .string(bundleId),
            "attributesType": .string(attributesType), "environment": .string(environment.rawValue),
            "groups": .array(groups.map { .string($0) }), "frequentPushesEnabled": .bool(frequentPushesEnabled),
            "state": .string(state.rawValue), "registeredAt": Self.date(registeredAt), "updatedAt": Self.date(updatedAt),
            "startedAt": Self.date(startedAt),
        ]
        var tokenMembers: [String: JSONValue] = ["valid": .bool(token.valid)]
        if let reason = token.reason { tokenMembers["reason"] = .string(reason) }
        if let at = token.at { tokenMembers["at"] = Self.date(at) }
        members["token"] = .object(tokenMembers)
        if let userId { members["userId"] = .string(userId) }
        if let endedAt { members["endedAt"] = Self.date(endedAt) }
        if let dismissalDate { members["dismissalDate"] = Self.date(dismissalDate) }
        if let lastContentState { members["lastContentState"] = lastContentState }
        if let lastTimestamp { members["lastTimestamp"] = Self.date(lastTimestamp) }
        return .object(members)
    }

    private static func date(_ date: Date) -> JSONValue { .string(date.formatted(.iso8601)) }
}

extension Schemas.ActivityRegistration: JSONValueDecodable {
    /// Every registration is one (SchemasTests compare it with JSONDecoder). The renewal and the
    /// content-state shape, nested objects of their own, are read by the decoder.
    init(checked value: JSONValue) throws {
        guard case .object(let members) = value else { throw CheckedBody.mismatch("an object", nil) }
        self.init(
            activityId: try CheckedBody.string(members, "activityId"), pushToken: try CheckedBody.string(members, "pushToken"),
            bundleId: try CheckedBody.string(members, "bundleId"), attributesType: try CheckedBody.string(members, "attributesType"),
            environment: try CheckedBody.environment(members),
            userId: try CheckedBody.optionalString(members, "userId").map(UserIdPayload.init(value1:)),
            groups: try CheckedBody.optionalStrings(members, "groups"),
            frequentPushesEnabled: try CheckedBody.optionalBool(members, "frequentPushesEnabled"),
            renewal: try CheckedBody.decoded(members, "renewal").map(RenewalPayload.init(value1:)),
            renews: try CheckedBody.optionalString(members, "renews").map(RenewsPayload.init(value1:)),
            contentStateShape: try CheckedBody.decoded(members, "contentStateShape").map(ContentStateShapePayload.init(value1:)),
            liveActivityKey: try CheckedBody.optionalString(members, "liveActivityKey").map(LiveActivityKeyPayload.init(value1:)))
    }
}

/// Reading members of a checked body: a member `null` is absent, as `JSONDecoder` reads it; a value of
/// another type than the contract's is a decoding error (a defect: the contract was checked first).
private enum CheckedBody {
    static func mismatch(_ expected: String, _ key: String?) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "\(key ?? "the body") is not \(expected)"))
    }

    static func string(_ members: [String: JSONValue], _ key: String) throws -> String {
        guard let value = try optionalString(members, key) else { throw mismatch("a string", key) }
        return value
    }

    static func optionalString(_ members: [String: JSONValue], _ key: String) throws -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw mismatch("a string", key)
        }
    }

    static func environment(_ members: [String: JSONValue]) throws -> Schemas.Environment {
        guard case .string(let name)? = members["environment"], let environment = Schemas.Environment(rawValue: name) else {
            throw mismatch("an environment", "environment")
        }
        return environment
    }

    static func optionalBool(_ members: [String: JSONValue], _ key: String) throws -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw mismatch("a boolean", key)
        }
    }

    static func optionalStrings(_ members: [String: JSONValue], _ key: String) throws -> [String]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let items)?:
            return try items.map { item in
                guard case .string(let text) = item else { throw mismatch("an array of strings", key) }
                return text
            }
        default: throw mismatch("an array", key)
        }
    }

    /// A member read by ``JSONValueDecoder`` (enums and nested objects).
    static func decoded<Value: Decodable>(_ members: [String: JSONValue], _ key: String) throws -> Value? {
        guard let value = members[key], value != .null else { return nil }
        return try JSONValueDecoder.decode(Value.self, from: value)
    }
}

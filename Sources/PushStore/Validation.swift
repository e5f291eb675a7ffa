import APNsCore
import Foundation

/// Input rules shared by both stores. Each failure names the field and says what is accepted.
enum Validation {
    /// Ids and names: 1 to `max` characters and at most 4 × `max` bytes of UTF-8, no control (Cc) or
    /// format (Cf) characters. A character is a grapheme cluster, which can hold any number of scalars (a
    /// one-character id of 10,001 bytes once passed), hence the bytes; 4 per character keeps every id of
    /// `max` single-scalar characters. Format characters are invisible (U+200B) or reorder the text around
    /// them (U+202E) in logs and dashboards, so two ids that look the same could differ.
    static func identifier(_ value: String, field: String, max: Int = 128) throws(PushStoreError) {
        guard !value.isEmpty else {
            throw .invalidInput(field: field, rule: "must not be empty; give 1 to \(max) characters")
        }
        // Printable ASCII (nearly every id) needs no character counting or Unicode lookups.
        if value.utf8.count <= max, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        let maximumBytes = 4 * max
        guard value.utf8.count <= maximumBytes else {
            throw .invalidInput(
                field: field,
                rule: "is \(value.utf8.count) bytes of UTF-8; at most \(maximumBytes) are accepted (4 for each of the \(max) characters)")
        }
        guard value.count <= max else {
            throw .invalidInput(field: field, rule: "has \(value.count) characters; at most \(max) are accepted")
        }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidInput(field: field, rule: "contains a control character; only printable text is accepted")
        }
        if let separator = value.unicodeScalars.first(where: { $0.value == 0x2028 || $0.value == 0x2029 }) {
            throw .invalidInput(
                field: field,
                rule:
                    "contains the \(separator.value == 0x2028 ? "line" : "paragraph") separator U+\(String(format: "%04X", separator.value)), which ends a line in JavaScript and in logs; ids are one line of visible text"
            )
        }
        if let format = value.unicodeScalars.first(where: { $0.properties.generalCategory == .format }) {
            throw .invalidInput(
                field: field,
                rule:
                    "contains the format character U+\(String(format: "%04X", format.value)); ids are visible text: no Unicode format characters (category Cf, e.g. U+200B, U+202E, U+FEFF)"
            )
        }
    }

    /// A claim's parameters: an owner id, 1 to 10000 `things` at a time, a lease of more than 0 and at most a day.
    static func claim(owner: String, limit: Int, lease: TimeInterval, of things: String) throws(PushStoreError) {
        try identifier(owner, field: "owner")
        guard (1...10_000).contains(limit) else {
            throw .invalidInput(field: "limit", rule: "is \(limit); claim 1 to 10000 \(things) at a time")
        }
        guard lease > 0, lease <= 86_400 else {
            throw .invalidInput(field: "lease", rule: "is \(lease) s; a lease lasts more than 0 and at most 86400 s")
        }
    }

    /// Each value at most once (one decision per activity of a batch).
    static func distinct(_ values: [String], field: String) throws(PushStoreError) {
        var seen = Set<String>()
        for value in values where !seen.insert(value).inserted {
            throw .invalidInput(field: field, rule: "'\(value)' is given twice; give each at most once")
        }
    }

    static func optionalIdentifier(_ value: String?, field: String, max: Int = 128) throws(PushStoreError) {
        if let value { try identifier(value, field: field, max: max) }
    }

    /// Free text such as reasons and errors: 1 to `max` characters.
    static func text(_ value: String, field: String, max: Int) throws(PushStoreError) {
        guard !value.isEmpty else { throw .invalidInput(field: field, rule: "must not be empty") }
        guard value.count <= max else {
            throw .invalidInput(field: field, rule: "has \(value.count) characters; at most \(max) are accepted")
        }
    }

    /// Live Activity pushes use priority 5 or 10.
    static func priority(_ priority: APNsPriority, field: String) throws(PushStoreError) {
        guard priority == .conservesPower || priority == .immediate else {
            throw .invalidInput(field: field, rule: "is \(priority.rawValue); Live Activity pushes use 5 or 10")
        }
    }

    /// A bundle id: it reaches APNs in paths and `apns-topic`, so only the form ``APNsBundleID`` describes.
    static func bundleID(_ value: String, field: String) throws(PushStoreError) {
        guard APNsBundleID.isValid(value) else {
            throw .invalidInput(
                field: field,
                rule:
                    "is not a bundle id: dot-separated labels of ASCII letters, digits, '-' and '_' (\(APNsBundleID.pattern)), at most \(APNsBundleID.maximumLength) characters"
            )
        }
    }

    static func registration(_ registration: ActivityRegistration) throws(PushStoreError) {
        try identifier(registration.activityID, field: "activityId")
        try bundleID(registration.bundleID, field: "bundleId")
        try identifier(registration.attributesType, field: "attributesType", max: 255)
        try optionalIdentifier(registration.userID, field: "userId")
        guard registration.groups.count <= 100 else {
            throw .invalidInput(field: "groups", rule: "has \(registration.groups.count) groups; at most 100 are accepted")
        }
        for (index, group) in registration.groups.enumerated() {
            try identifier(group, field: "groups[\(index)]")
        }
    }

    static func pushToStart(_ registration: PushToStartRegistration) throws(PushStoreError) {
        try identifier(registration.userID, field: "userId")
        try identifier(registration.deviceID, field: "deviceId")
        try bundleID(registration.bundleID, field: "bundleId")
        try identifier(registration.attributesType, field: "attributesType", max: 255)
    }

    /// Checks one outbox item; `field` prefixes the names (`items[3]`).
    static func outboxItem(_ item: OutboxItem, field: String) throws(PushStoreError) {
        switch (item.kind, item.target) {
        case (.start, .pushToStartToken), (.update, .activity), (.end, .activity), (.update, .channel), (.end, .channel):
            break
        case (.start, .channel):
            throw .invalidInput(field: "\(field).target", rule: "a broadcast cannot start an activity; start pushes go to push-to-start tokens")
        case (.start, .activity):
            throw .invalidInput(field: "\(field).target", rule: "a start push goes to a push-to-start token, not an activity")
        case (_, .pushToStartToken):
            throw .invalidInput(
                field: "\(field).target", rule: "an \(item.kind.rawValue) push goes to an activity, not a push-to-start token")
        }
        if case .activity(let id) = item.target { try identifier(id, field: "\(field).target") }
        guard !item.payload.isEmpty else {
            throw .invalidInput(field: "\(field).payload", rule: "is empty; the complete JSON body of the push is required")
        }
        guard item.payload.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
            throw .invalidInput(field: "\(field).payload", rule: "is not a JSON object; the body of a push is a JSON object")
        }
        try priority(item.priority, field: "\(field).priority")
        try priority(item.requestedPriority, field: "\(field).requestedPriority")
        if let collapseKey = item.collapseKey, collapseKey.isEmpty || collapseKey.utf8.count > 64 {
            throw .invalidInput(
                field: "\(field).collapseKey", rule: "has \(collapseKey.utf8.count) bytes; apns-collapse-id takes 1 to 64 bytes")
        }
        if let reason = item.downgradeReason { try text(reason, field: "\(field).downgradeReason", max: 500) }
        guard item.attempts >= 0 else {
            throw .invalidInput(field: "\(field).attempts", rule: "is \(item.attempts); must be 0 or more")
        }
        guard item.claim == nil else {
            throw .invalidInput(field: "\(field).claim", rule: "a new item is not claimed yet; leave claim nil")
        }
    }

    /// Checks each element of a batch with `check`, named `field[index]`, and that no push id repeats.
    static func batch<Element>(
        _ elements: [Element], field: String, pushID: (Element) -> UUID,
        _ check: (Element, String) throws(PushStoreError) -> Void
    ) throws(PushStoreError) {
        var seen = Set<UUID>()
        for (index, element) in elements.enumerated() {
            try check(element, "\(field)[\(index)]")
            guard seen.insert(pushID(element)).inserted else {
                throw .invalidInput(field: "\(field)[\(index)].pushId", rule: "repeats an earlier push id of the batch")
            }
        }
    }

    /// Lowercase SHA-256 hex of an API key.
    static func sha256Hex(_ value: String, field: String) throws(PushStoreError) -> String {
        let lower = value.lowercased()
        guard lower.utf8.count == 64, lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else {
            throw .invalidInput(field: field, rule: "must be the SHA-256 of the key as 64 hexadecimal digits")
        }
        return lower
    }

    /// Checks one worker's result; `field` prefixes the names (`results[3]`).
    static func deliveryResult(_ result: DeliveryResult, field: String) throws(PushStoreError) {
        guard result.outcome != .coalesced else {
            throw .invalidInput(
                field: "\(field).outcome",
                rule: "coalesced is recorded by enqueue; a worker reports accepted, rejected, failed or expired")
        }
        if let status = result.status, !(100...599).contains(status) {
            throw .invalidInput(field: "\(field).status", rule: "is \(status); an HTTP status is 100 to 599")
        }
        if let reason = result.reason { try text(reason, field: "\(field).reason", max: DeliveryResult.maximumReasonLength) }
        if let apnsID = result.apnsID { try identifier(apnsID, field: "\(field).apnsId", max: 64) }
        if let uniqueID = result.apnsUniqueID { try identifier(uniqueID, field: "\(field).apnsUniqueId", max: 64) }
        guard result.attempts >= 0 else {
            throw .invalidInput(field: "\(field).attempts", rule: "is \(result.attempts); must be 0 or more")
        }
    }
}

import APNsCore
import Foundation

/// Several provider keys with their scopes, read from a JSON file (`livepush serve --keys FILE`;
/// docs/apns-protocol.md §5). A provider that holds one key per environment, or topic-specific keys,
/// lists each with the scope Apple gave it:
///
/// ```json
/// {
///   "teamId": "DEF123GHIJ",
///   "keys": [
///     { "keyFile": "rangers.p8", "keyId": "KEYRANGERS", "environment": "production",
///       "topics": ["com.example.rangers"] },
///     { "keyFile": "team.p8", "keyId": "KEYTEAM001", "environment": "production" }
///   ]
/// }
/// ```
///
/// `teamId` at the top is every key's team unless a key names its own; `environment` left out means a key
/// of both environments (an older key); `topics` left out means a team-scoped key. A relative `keyFile`
/// is read from the directory of the JSON file.
public enum ProviderKeysFile {
    /// The fields a key entry may have; any other is refused (a misspelt `topic` must not silently make a
    /// topic-specific key team-scoped).
    public static let entryFields: Set<String> = ["keyFile", "keyId", "teamId", "environment", "topics"]
    /// The fields the top level may have.
    public static let topFields: Set<String> = ["teamId", "keys"]

    /// Reads the file at `path` (`~` expanded) and loads each key; `defaultTeamID` is the team of keys
    /// when the file names none.
    public static func read(path: String, defaultTeamID: String? = nil) throws(ProviderKeysFileError) -> [ScopedProviderKey] {
        let expanded = NSString(string: path).expandingTildeInPath
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: expanded))
        } catch {
            throw ProviderKeysFileError(path: expanded, field: nil, rule: "cannot be read: \(error.localizedDescription)")
        }
        let directory = URL(fileURLWithPath: expanded).deletingLastPathComponent()
        return try parse(data, path: expanded, relativeTo: directory, defaultTeamID: defaultTeamID)
    }

    /// Parses the JSON in `data` (named `path` in errors) and loads each key, relative `keyFile`s from
    /// `directory`; `defaultTeamID` is the team of keys when the file names none.
    public static func parse(
        _ data: Data, path: String, relativeTo directory: URL, defaultTeamID: String? = nil
    ) throws(ProviderKeysFileError) -> [ScopedProviderKey] {
        func refuse(_ field: String?, _ rule: String) -> ProviderKeysFileError {
            ProviderKeysFileError(path: path, field: field, rule: rule)
        }
        guard let top = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw refuse(nil, "is not a JSON object; expected {\"teamId\": \"...\", \"keys\": [{\"keyFile\": ..., \"keyId\": ...}]}")
        }
        if let unknown = top.keys.sorted().first(where: { !topFields.contains($0) }) {
            throw refuse(unknown, "is not a field of a keys file; accepted: \(topFields.sorted().joined(separator: ", "))")
        }
        let defaultTeam = try text(top["teamId"], field: "teamId", required: false, refuse: refuse) ?? defaultTeamID
        guard let list = top["keys"] as? [Any] else {
            throw refuse("keys", top["keys"] == nil ? "is required: a list of keys" : "must be a list of key objects")
        }
        guard !list.isEmpty else { throw refuse("keys", "is empty; list at least one provider key") }
        var keys: [ScopedProviderKey] = []
        keys.reserveCapacity(list.count)
        // Each key file is read and parsed once, however many entries name it.
        var loaded: [String: APNsSigningKey] = [:]
        for (index, element) in list.enumerated() {
            let name = "keys[\(index)]"
            guard let entry = element as? [String: Any] else { throw refuse(name, "must be an object with keyFile and keyId") }
            if let unknown = entry.keys.sorted().first(where: { !entryFields.contains($0) }) {
                throw refuse("\(name).\(unknown)", "is not a field of a key; accepted: \(entryFields.sorted().joined(separator: ", "))")
            }
            let file = try text(entry["keyFile"], field: "\(name).keyFile", required: true, refuse: refuse) ?? ""
            let keyID = try text(entry["keyId"], field: "\(name).keyId", required: true, refuse: refuse) ?? ""
            guard let teamID = try text(entry["teamId"], field: "\(name).teamId", required: false, refuse: refuse) ?? defaultTeam else {
                throw refuse("\(name).teamId", "is required when the file has no top-level teamId (and no --team-id is given)")
            }
            var environment: APNsEnvironment?
            if let raw = entry["environment"] {
                guard let string = raw as? String, let parsed = APNsEnvironment(rawValue: string) else {
                    throw refuse("\(name).environment", "is \(describe(raw)); accepted: sandbox, production (leave it out for a key of both)")
                }
                environment = parsed
            }
            var topics: Set<String>?
            if let raw = entry["topics"] {
                guard let list = raw as? [String] else { throw refuse("\(name).topics", "must be a list of bundle ids") }
                topics = Set(list)
            }
            let keyPath = URL(fileURLWithPath: NSString(string: file).expandingTildeInPath, relativeTo: directory).standardizedFileURL.path
            let credentials: ProviderCredentials
            do throws(ProviderCredentialsError) {
                try ProviderCredentials.validate(keyID, field: .keyID)
                try ProviderCredentials.validate(teamID, field: .teamID)
                let key: APNsSigningKey
                if let known = loaded[keyPath] {
                    key = known
                } else {
                    do {
                        key = try APNsSigningKey(contentsOfFile: keyPath)
                    } catch {
                        throw .key(path: keyPath, error)
                    }
                    loaded[keyPath] = key
                }
                credentials = try ProviderCredentials(key: key, keyID: keyID, teamID: teamID)
            } catch {
                throw refuse(name, error.description)
            }
            keys.append(ScopedProviderKey(credentials, scope: ProviderKeyScope(environment: environment, topics: topics)))
        }
        return keys
    }

    private static func text(
        _ value: Any?, field: String, required: Bool, refuse: (String?, String) -> ProviderKeysFileError
    ) throws(ProviderKeysFileError) -> String? {
        guard let value else {
            if required { throw refuse(field, "is required") }
            return nil
        }
        guard let string = value as? String, !string.isEmpty else { throw refuse(field, "must be a non-empty string, not \(describe(value))") }
        return string
    }

    private static func describe(_ value: Any) -> String {
        if let string = value as? String { return "'\(string)'" }
        if value is NSNull { return "null" }
        return "\(value)"
    }
}

/// Why a keys file could not be used: the file, the field (`keys[1].topics`) and the rule it broke.
public struct ProviderKeysFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let field: String?
    public let rule: String

    public var description: String {
        if let field { return "\(path): \(field) \(rule)" }
        return "\(path) \(rule)"
    }
}

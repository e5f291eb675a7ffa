import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// `/openapi.json` and the server agree where the server's behaviour is not derived from the document:
/// every operation is served by a route that checks its own operation (its documented example body, and a
/// body of only the required fields, are accepted and answered as documented; a missing required body and
/// an unknown field are refused); each path parameter's limit holds on its route; and the document's date
/// patterns, which other tools read, agree with the server's date check at their boundaries. The rules of
/// each keyword are the validator's own tests (APIContractTests).
@Suite struct ContractTests {
    @Test func documentAndServerAgree() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let document = try await ContractDocument(harness.http)
            var run = ContractRun(harness: harness, document: document)
            let operations = document.operations()
            #expect(operations.count == 42)
            var withBody = 0
            for operation in operations {
                try await run.checkPathParameters(operation)
                guard let schema = operation.bodySchema else { continue }
                withBody += 1
                try await run.check(operation, schema: schema)
            }
            #expect(withBody == 23)
            #expect(run.checks > 100)
            print("ContractTests: \(operations.count) operations, \(withBody) with a body, \(run.checks) checks")
        }
    }

    /// The date patterns of the document at their boundaries: each sample matches its form's pattern exactly
    /// when expected, and the server agrees (a match is accepted; a value outside the window is refused).
    /// `server: false` marks the values the pattern leaves out although the server takes them (an ISO 8601
    /// offset that brings a 2000-12-31 or 2100-01-01 moment inside the window), as the document says.
    @Test func datePatternsHoldAtTheirBoundaries() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let document = try await ContractDocument(harness.http)
            let http = harness.http
            func form(_ schema: String, _ index: Int) throws -> NSRegularExpression {
                guard let branches = document.lookup("#/components/schemas/\(schema)")["oneOf"]?.arrayValue else {
                    throw ContractFailure("\(schema) has no oneOf")
                }
                return try NSRegularExpression(pattern: try #require(branches[index]["pattern"]?.stringValue))
            }
            // (schema, form, value, matches, what the server does when it differs from `matches`)
            typealias Sample = (schema: String, form: Int, value: String, matches: Bool, server: Bool?)
            let samples: [Sample] = [
                ("Date", 2, "978307199", false, nil), ("Date", 2, "978307200", true, nil), ("Date", 2, "000978307200", true, nil),
                ("Date", 2, "1685959200", true, nil), ("Date", 2, "4102444799", true, nil), ("Date", 2, "4102444800", false, nil),
                ("Date", 2, "9999999999", false, nil), ("Date", 2, "99999999999", false, nil), ("Date", 2, "0", false, nil),
                ("DismissalDate", 2, "0", true, nil), ("DismissalDate", 2, "978307199", true, nil), ("DismissalDate", 2, "4102444799", true, nil),
                ("DismissalDate", 2, "4102444800", false, nil),
                ("Date", 1, "2001-01-01T00:00:00Z", true, nil), ("Date", 1, "2000-12-31T23:59:59Z", false, nil),
                ("Date", 1, "2001-01-01T00:00:00-05:00", true, nil), ("Date", 1, "2001-01-01T00:30:00+01:00", false, nil),
                ("Date", 1, "2000-12-31T23:30:00-01:00", false, true), ("Date", 1, "2099-12-31T23:59:59.999Z", true, nil),
                ("Date", 1, "2099-12-31T20:00:00+05:00", true, nil), ("Date", 1, "2099-12-31T23:30:00-01:00", false, nil),
                ("Date", 1, "2100-01-01T00:00:00Z", false, nil), ("Date", 1, "2100-01-01T00:30:00+01:00", false, true),
                ("Date", 1, "2026-11-22T10:00:00.250+02:00", true, nil),
                ("DismissalDate", 1, "1970-01-01T00:00:00Z", true, nil), ("DismissalDate", 1, "1969-12-31T23:59:59Z", false, nil),
                ("Date", 3, "+99999999s", true, nil), ("Date", 3, "-999999m", true, nil), ("Date", 3, "+9999h", true, nil),
                ("Date", 3, "-999d", true, nil), ("Date", 3, "+000030m", true, nil), ("Date", 3, "+100000000s", false, true),
                ("Date", 3, "+1000d", false, true), ("Date", 3, "+30", false, false),
                ("Expiration", 0, "+1s", true, nil), ("Expiration", 0, "+2592000s", true, nil), ("Expiration", 0, "+2592001s", false, nil),
                ("Expiration", 0, "+43200m", true, nil), ("Expiration", 0, "+43201m", false, nil), ("Expiration", 0, "+720h", true, nil),
                ("Expiration", 0, "+721h", false, nil), ("Expiration", 0, "+30d", true, nil), ("Expiration", 0, "+31d", false, nil),
                ("Expiration", 0, "+0030d", true, nil), ("Expiration", 0, "+0s", false, nil), ("Expiration", 0, "+0d", false, nil),
                ("Expiration", 0, "-5m", false, nil),
            ]
            var serial = 0
            for sample in samples {
                let pattern = try form(sample.schema, sample.form)
                let matches = pattern.firstMatch(in: sample.value, range: NSRange(sample.value.startIndex..., in: sample.value)) != nil
                #expect(matches == sample.matches, "\(sample.schema) form \(sample.form): \(sample.value)")
                let accepted = sample.server ?? sample.matches
                // Each sample goes to a fresh activity (an end ends it).
                serial += 1
                let id = "pattern-\(serial)"
                #expect(
                    try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: ContractRun.randomHex(64)))
                        .status == 201)
                let (path, field) =
                    switch sample.schema {
                    case "DismissalDate": ("/v1/activities/\(id)/end", "dismissalDate")
                    case "Expiration": ("/v1/activities/\(id)/update", "expiration")
                    default: ("/v1/activities/\(id)/update", "staleDate")
                    }
                let answer = try await http.post(path, key: TestServer.backendKey, #"{"contentState":{"hp":1},"\#(field)":"\#(sample.value)"}"#)
                if accepted {
                    #expect(answer.status == 202, "\(field) \(sample.value): \(answer.text)")
                } else {
                    #expect(answer.status == 400 && answer.errorField == field, "\(field) \(sample.value): \(answer.text)")
                }
            }
        }
    }
}

/// `/openapi.json` with `$ref` and `allOf` resolved.
struct ContractDocument: Sendable {
    struct Operation: Sendable {
        var id: String
        var method: String
        var path: String
        var key: String
        var bodySchema: JSONValue?
        var bodyRequired: Bool
        var parameters: [[String: JSONValue]]
        var successSchema: JSONValue?
    }

    let root: JSONValue

    init(_ http: TestHTTP) async throws {
        let response = try await http.get("/openapi.json")
        root = try #require(response.json)
        #expect(root["openapi"]?.stringValue == "3.0.3")
    }

    func lookup(_ reference: String) -> JSONValue {
        var node = root
        for part in reference.split(separator: "/").dropFirst() { node = node[String(part)] ?? .null }
        return node
    }

    /// The schema with its `$ref` followed and its `allOf` merged (properties and required joined).
    func resolve(_ schema: JSONValue) -> [String: JSONValue] {
        var object = schema.objectValue ?? [:]
        if let reference = object["$ref"]?.stringValue { object = resolve(lookup(reference)) }
        guard let parts = object["allOf"]?.arrayValue else { return object }
        object["allOf"] = nil
        for part in parts {
            for (key, value) in resolve(part) {
                switch key {
                case "properties":
                    var merged = object[key]?.objectValue ?? [:]
                    merged.merge(value.objectValue ?? [:]) { first, _ in first }
                    object[key] = .object(merged)
                case "required":
                    object[key] = .array(Array(Set((object[key]?.arrayValue ?? []) + (value.arrayValue ?? []))).sorted { "\($0)" < "\($1)" })
                default:
                    if object[key] == nil { object[key] = value }
                }
            }
        }
        return object
    }

    func operations() -> [Operation] {
        var out: [Operation] = []
        for (path, item) in root["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] {
                let scope = operation["security"]?.arrayValue?.first?.objectValue?.keys.first
                let body = operation["requestBody"]
                let success = (operation["responses"]?.objectValue ?? [:]).first { $0.key.hasPrefix("2") }?.value
                let successSchema = success.map { resolveResponse($0) }?["content"]?["application/json"]?["schema"]
                out.append(
                    Operation(
                        id: operation["operationId"]?.stringValue ?? "\(method) \(path)", method: method.uppercased(), path: path,
                        key: scope == "appKey" ? TestServer.appKey : scope == "operatorKey" ? TestServer.operatorKey : TestServer.backendKey,
                        bodySchema: body?["content"]?["application/json"]?["schema"], bodyRequired: body?["required"]?.boolValue ?? false,
                        parameters: (operation["parameters"]?.arrayValue ?? []).map { resolve($0) }, successSchema: successSchema
                    ))
            }
        }
        return out.sorted { $0.id < $1.id }
    }

    private func resolveResponse(_ response: JSONValue) -> JSONValue {
        if let reference = response["$ref"]?.stringValue { return lookup(reference) }
        return response
    }

    /// A value built from the schema's `example`, else from its properties' examples; nil when it has none.
    func example(_ schema: JSONValue) -> JSONValue? {
        let resolved = resolve(schema)
        if let example = resolved["example"] { return example }
        if resolved["type"]?.stringValue == "object", let properties = resolved["properties"]?.objectValue {
            var object: [String: JSONValue] = [:]
            for (name, property) in properties {
                if let value = example(property) { object[name] = value }
            }
            return .object(object)
        }
        return nil
    }
}

/// One pass over the document's operations against one server, counting what it checked.
struct ContractRun {
    enum Step: CustomStringConvertible {
        case key(String)
        case index(Int)
        var description: String {
            switch self {
            case .key(let key): return key
            case .index(let index): return "[\(index)]"
            }
        }
    }

    enum Expectation {
        /// 2xx. `tolerating`: rules of the whole request that a value at a limit may meet (the 4096-byte
        /// payload, a sound given twice), which the document states in descriptions.
        case accepted(tolerating: Set<String>)
        /// 400 naming `field`, with `rule` when given.
        case refused(field: String?, rule: String?)
    }

    let harness: TestServer
    let document: ContractDocument
    var checks = 0
    private var serial = 0
    private var mintedToken: String?
    /// The token of each installation a target path names (renewal takes the installation's own token).
    private var installationTokens: [String: String] = [:]
    private var createdChannel: String?
    /// The document's example id (its example bodies register activity `rangers-1` for user `rangers-1`),
    /// so the user token may change what the examples registered.
    static let contractUser = "rangers-1"

    init(harness: TestServer, document: ContractDocument) {
        self.harness = harness
        self.document = document
    }

    static func randomHex(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement()! })
    }

    mutating func fresh(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)-\(serial)"
    }

    // MARK: - Bodies

    /// A valid body: the examples, with a new token in each device-token field (a token is one activity's).
    func validBody(_ schema: JSONValue, onlyRequired: Bool = false) throws -> JSONValue {
        var body = try #require(document.example(schema)?.objectValue, "the document gives no example body")
        let resolved = document.resolve(schema)
        let required = Set((resolved["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for (name, property) in resolved["properties"]?.objectValue ?? [:] {
            if onlyRequired, !required.contains(name) {
                body[name] = nil
                continue
            }
            if property["$ref"]?.stringValue?.hasSuffix("/DeviceToken") == true, body[name] != nil {
                body[name] = .string(Self.randomHex(64))
            }
        }
        for name in required {
            #expect(body[name] != nil, "required '\(name)' has no example")
        }
        return .object(body)
    }

    /// `body` with the value at `path` replaced (nil removes it).
    static func setting(_ body: JSONValue, _ path: [Step], to value: JSONValue?) -> JSONValue {
        guard let first = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        switch (first, body) {
        case (.key(let key), .object(var object)):
            if rest.isEmpty { object[key] = value } else { object[key] = setting(object[key] ?? .object([:]), rest, to: value) }
            return .object(object)
        case (.index(let index), .array(var array)) where index < array.count:
            if rest.isEmpty {
                if let value { array[index] = value } else { array.remove(at: index) }
            } else {
                array[index] = setting(array[index], rest, to: value)
            }
            return .array(array)
        default:
            return body
        }
    }

    // MARK: - Targets

    /// The path with its parameters filled by a new activity, group or user that can take `body`.
    mutating func target(_ operation: ContractDocument.Operation, body: JSONValue?) async throws -> String {
        let http = harness.http
        var path = operation.path
        if path.contains("{activityId}") {
            let id = fresh("contract-activity")
            let registered = try await http.post(
                "/v1/activities", key: TestServer.appKey,
                registrationJSON(activityID: id, token: Self.randomHex(64), userID: Self.contractUser))
            try #require(registered.status == 201, "\(registered.text)")
            path = path.replacingOccurrences(of: "{activityId}", with: id)
        }
        if path.contains("{channelId}") {
            let created = try await http.post(
                "/v1/channels", key: TestServer.backendKey,
                #"{"name":"\#(fresh("contract-channel"))","bundleId":"com.example.rangers","storagePolicy":1}"#)
            let id = try #require(created.json?["id"]?.stringValue, "\(created.text)")
            path = path.replacingOccurrences(of: "{channelId}", with: id)
        }
        if path.contains("{groupId}") {
            let group = fresh("contract-group")
            let registered = try await http.post(
                "/v1/activities", key: TestServer.appKey,
                registrationJSON(activityID: fresh("contract-member"), token: Self.randomHex(64), groups: [group]))
            try #require(registered.status == 201, "\(registered.text)")
            path = path.replacingOccurrences(of: "{groupId}", with: group)
        }
        if path.contains("{installationId}") {
            let opened = try await http.post("/v1/installations", key: TestServer.appKey, "")
            let id = try #require(opened.json?["installationId"]?.stringValue, "\(opened.text)")
            path = path.replacingOccurrences(of: "{installationId}", with: id)
            installationTokens[path] = try #require(opened.json?["token"]?.stringValue)
        }
        path = Self.filledAppPath(path, attributesType: fresh("ContractAttributes"))
        if path.contains("{userId}") {
            let user = fresh("contract-user")
            let type = body?["attributesType"]?.stringValue ?? "AdventureAttributes"
            let token: JSONValue = .object([
                "userId": .string(user), "deviceId": "device", "bundleId": "com.example.rangers", "attributesType": .string(type),
                "environment": "sandbox", "token": .string(Self.randomHex(64)),
            ])
            let stored = try await http.request("PUT", "/v1/push-to-start-tokens", key: TestServer.appKey, body: token.serialized()).response
            try #require(stored.status == 200, "\(stored.text)")
            path = path.replacingOccurrences(of: "{userId}", with: user)
        }
        if path.contains("{key}") {
            path = path.replacingOccurrences(of: "{key}", with: fresh("contract-key"))
            if operation.id != "putLiveActivity" {
                // The resource to read or end: started for the user whose push-to-start token was stored above.
                let put = try await http.put(
                    path, key: TestServer.backendKey,
                    #"{"attributesType":"AdventureAttributes","attributes":{},"contentState":{},"alert":{"title":"Go"}}"#)
                try #require(put.json?["outcome"] == "started", "\(put.text)")
            }
        }
        return path
    }

    /// The path with its other parameters filled, for checking one: the app's, and a user and key of their own.
    static func filledPathParameters(_ path: String) -> String {
        filledAppPath(path).replacingOccurrences(of: "{userId}", with: "contract-path-user").replacingOccurrences(
            of: "{key}", with: "contract-path-key")
    }

    /// The path with its app's parameters filled: an app of its own, whose shapes no other operation meets.
    static func filledAppPath(_ path: String, attributesType: String = "AdventureAttributes") -> String {
        path.replacingOccurrences(of: "{bundleId}", with: "com.example.contract").replacingOccurrences(of: "{attributesType}", with: attributesType)
    }

    // MARK: - Checks

    /// A channel for the starts that subscribe to one.
    mutating func channelID() async throws -> String {
        if let id = createdChannel { return id }
        let created = try await harness.http.post(
            "/v1/channels", key: TestServer.backendKey,
            #"{"name":"contract-start","bundleId":"com.example.rangers","storagePolicy":0}"#)
        let id = try #require(created.json?["id"]?.stringValue, "\(created.text)")
        createdChannel = id
        return id
    }

    /// A user token for `contractUser`, the owner of the activities the targets register.
    mutating func userToken() async throws -> String {
        if let token = mintedToken { return token }
        let minted = try await harness.http.post("/v1/users/\(Self.contractUser)/app-tokens", key: TestServer.backendKey, "{}")
        let token = try #require(minted.json?["token"]?.stringValue, "\(minted.text)")
        mintedToken = token
        return token
    }

    mutating func expect(
        _ operation: ContractDocument.Operation, body: JSONValue?, _ expectation: Expectation, _ what: String,
        path fixedPath: String? = nil, key: String? = nil
    ) async throws {
        checks += 1
        let path: String
        if let fixedPath { path = fixedPath } else { path = try await target(operation, body: body) }
        var body = body
        if case .accepted = expectation, case .object(var fields)? = body, fields["inputPushChannel"]?.stringValue != nil {
            // An accepted start names a channel that exists.
            fields["inputPushChannel"] = .string(try await channelID())
            body = .object(fields)
        }
        if case .accepted = expectation, operation.id == "operatorTestPush", case .object(var fields)? = body, fields["confirmActivityId"] != nil {
            // The console's test push is confirmed by repeating the path's activity id.
            fields["confirmActivityId"] = .string(path.split(separator: "/")[3].removingPercentEncoding ?? "")
            body = .object(fields)
        }
        if operation.id == "createChannel", body?["name"]?.stringValue == ContractRun.contractUser, case .object(var fields)? = body {
            // Channel names are unique: each accepted create needs its own.
            fields["name"] = .string(fresh("channel"))
            body = .object(fields)
        }
        let response = try await harness.http.request(
            operation.method, path, key: installationTokens[path] ?? key ?? operation.key, body: body.map { $0.serialized() }
        ).response
        let context = "\(operation.id) \(what): \(response.status) \(response.text)"
        switch expectation {
        case .accepted(let tolerated):
            if response.status == 400, let rule = response.errorRule, tolerated.contains(rule) { return }
            #expect((200..<300).contains(response.status), "\(context)")
            if (200..<300).contains(response.status), let schema = operation.successSchema, let json = response.json {
                checkDocumented(json, schema: schema, at: operation.id)
            }
        case .refused(let field, let rule):
            #expect(response.status == 400, "\(context)")
            #expect(response.errorField == field, "\(context)")
            if let rule { #expect(response.errorRule == rule, "\(context)") }
        }
    }

    /// Every key of a response is a property of its documented schema, and every required one is there.
    func checkDocumented(_ value: JSONValue, schema: JSONValue, at place: String) {
        let resolved = document.resolve(schema)
        if let object = value.objectValue, let properties = resolved["properties"]?.objectValue {
            for key in object.keys {
                #expect(properties[key] != nil, "\(place): the server answers '\(key)', which the document does not list")
                if let property = properties[key], let nested = object[key] { checkDocumented(nested, schema: property, at: place + "." + key) }
            }
            for required in (resolved["required"]?.arrayValue ?? []).compactMap(\.stringValue) {
                #expect(object[required] != nil, "\(place): the document requires '\(required)' but the answer lacks it")
            }
        }
        if let array = value.arrayValue, let items = resolved["items"] {
            for element in array { checkDocumented(element, schema: items, at: place + "[]") }
        }
    }

    /// Each path parameter: over its maxLength is 400 maxLength naming it; at the limit it passes validation.
    mutating func checkPathParameters(_ operation: ContractDocument.Operation) async throws {
        for parameter in operation.parameters where parameter["in"]?.stringValue == "path" {
            let name = try #require(parameter["name"]?.stringValue)
            let maxLength = try #require(
                parameter["schema"]?["maxLength"]?.numberValue.map { Int($0) }, "\(operation.id): '\(name)' has no maxLength")
            #expect(parameter["schema"]?["minLength"]?.numberValue == 1)
            let body = try operation.bodySchema.map { try validBody($0) }
            // Ids take any printable text; a bundle id only ASCII labels.
            let pattern = try parameter["schema"]?["pattern"]?.stringValue.map { try NSRegularExpression(pattern: $0) }
            let fill = pattern.map { $0.firstMatch(in: "é", range: NSRange(location: 0, length: 1)) == nil } == true ? "a" : "é"
            for (length, expected) in [(maxLength + 1, true), (maxLength, false)] {
                checks += 1
                let path =
                    Self.filledPathParameters(operation.path.replacingOccurrences(of: "{\(name)}", with: String(repeating: fill, count: length)))
                    .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
                let response = try await harness.http.request(operation.method, path, key: operation.key, body: body.map { $0.serialized() }).response
                if expected {
                    #expect(
                        response.status == 400 && response.errorField == name && response.errorRule == "maxLength",
                        "\(operation.id) \(name) of \(length): \(response.status) \(response.text)")
                } else {
                    #expect(response.status != 400, "\(operation.id) \(name) of \(length) characters: \(response.status) \(response.text)")
                }
            }
            // The pattern (the Id rule: no control character) holds in the path too: a value breaking it is
            // 400 naming the parameter; the same value without the bad character passes validation.
            if let pattern = parameter["schema"]?["pattern"]?.stringValue, fill == "é" {
                let expression = try NSRegularExpression(pattern: pattern)
                for (value, expected) in [("bad\u{7}id", true), ("bad\u{85}id", true), ("good\u{A0}id", false)] {
                    checks += 1
                    let matches = expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
                    #expect(matches != expected, "\(operation.id): '\(name)' pattern \(pattern) and \(value.debugDescription)")
                    let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    let path = Self.filledPathParameters(operation.path.replacingOccurrences(of: "{\(name)}", with: encoded))
                    let response = try await harness.http.request(operation.method, path, key: operation.key, body: body.map { $0.serialized() })
                        .response
                    if expected {
                        #expect(
                            response.status == 400 && response.errorField == name,
                            "\(operation.id) \(name) \(value.debugDescription): \(response.status) \(response.text)")
                    } else {
                        #expect(response.status != 400, "\(operation.id) \(name) \(value.debugDescription): \(response.status) \(response.text)")
                    }
                }
            }
        }
    }

    /// What an operation's required fields alone may meet: a rule of two fields together, or of a state.
    static let toleratedWithRequiredFieldsAlone: [String: Set<String>] = [
        "putLiveActivity": ["requiredToStart"], "startForAudience": ["required"],
    ]

    /// The body checks of one operation.
    mutating func check(_ operation: ContractDocument.Operation, schema: JSONValue) async throws {
        let valid = try validBody(schema)
        try await expect(operation, body: valid, .accepted(tolerating: []), "the example body")
        // As an app sends it: with a user token, which names the user (the development key also takes any
        // userId, so the other checks use it).
        try await expect(
            operation, body: try validBody(schema, onlyRequired: true),
            // A PUT that must start its Live Activity needs the optional alert (400 requiredToStart); an
            // audience start needs one of userIds and everyone, which the schema cannot list as required.
            .accepted(tolerating: Self.toleratedWithRequiredFieldsAlone[operation.id] ?? []), "the required fields alone",
            key: operation.key == TestServer.appKey && operation.id != "openInstallation" ? try await userToken() : nil)
        if operation.bodyRequired {
            try await expect(operation, body: nil, .refused(field: nil, rule: "required"), "no body")
        } else {
            try await expect(operation, body: nil, .accepted(tolerating: []), "no body")
        }
        // The route checks its body against its own operation of the contract (the validator's rules are
        // its unit tests'): a field the document does not list is refused, named.
        let negativePath = try await target(operation, body: valid)
        let unknown: [Step] = [.key("unexpectedField")]
        try await expect(
            operation, body: Self.setting(valid, unknown, to: "x"), .refused(field: "unexpectedField", rule: "unknown"),
            "an unknown field", path: negativePath)
    }
}

/// A document that lacks what a check needs.
struct ContractFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

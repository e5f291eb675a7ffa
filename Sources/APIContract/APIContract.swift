import Foundation
import LiveActivity

/// The API's contract, `openapi.json` of this module: the text `GET /openapi.json` serves, and the rules
/// of every request, read from that text. The server checks each request against it, and the Swift
/// client checks what it sends against it, so a limit changed in the file changes both.
package struct APIContract: Sendable {
    /// The exact contents of openapi.json.
    package static var text: String { OpenAPIContract.text }

    /// The contract, parsed and checked once (a defect of the document stops the process at its first use,
    /// which every test of a route reaches).
    package static let shared: APIContract = {
        do {
            return try APIContract(text: OpenAPIContract.text)
        } catch {
            fatalError("\(error)")
        }
    }()

    /// Each operation by its `operationId`.
    package let operations: [String: Operation]

    /// What one operation takes: its body's schema and whether a body is required, and its parameters.
    package struct Operation: Sendable {
        package var id: String
        package var method: String
        package var path: String
        package var body: Schema?
        package var bodyRequired: Bool
        /// Path, query and header parameters by name (headers in lower case).
        package var parameters: [String: Parameter]
    }

    package struct Parameter: Sendable {
        package var name: String
        package var location: String
        package var required: Bool
        package var schema: Schema
    }

    package init(text: String) throws(ContractDocumentError) {
        let document: JSONValue
        do {
            document = try JSONValue.parse(text)
        } catch {
            throw .invalid("openapi.json is not JSON: \(error)")
        }
        var operations: [String: Operation] = [:]
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] where Self.methods.contains(method) {
                guard let id = operation["operationId"]?.stringValue else { throw .invalid("\(method) \(path) has no operationId") }
                var parameters: [String: Parameter] = [:]
                for each in operation["parameters"]?.arrayValue ?? [] {
                    let parameter = try Self.parameter(each, in: document)
                    parameters[parameter.location == "header" ? parameter.name.lowercased() : parameter.name] = parameter
                }
                let body = try operation["requestBody"].map { body throws(ContractDocumentError) in
                    var body = body
                    if let reference = body["$ref"]?.stringValue { body = try Schema.resolve(reference, in: document) }
                    return body
                }
                operations[id] = Operation(
                    id: id, method: method.uppercased(), path: path,
                    body: try body?["content"]?["application/json"]?["schema"].map { schema throws(ContractDocumentError) in
                        try Schema(schema, in: document)
                    },
                    bodyRequired: body?["required"]?.boolValue ?? false, parameters: parameters)
            }
        }
        self.operations = operations
        for operation in operations.values {
            try operation.body.map { schema throws(ContractDocumentError) in try Self.checkNamedChecks(schema) }
        }
    }

    /// The operation `id`; a route naming one the document lacks is a defect of the server.
    package func operation(_ id: String) -> Operation {
        guard let operation = operations[id] else { preconditionFailure("the contract has no operation '\(id)'") }
        return operation
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    private static func parameter(_ value: JSONValue, in document: JSONValue) throws(ContractDocumentError) -> Parameter {
        var value = value
        if let reference = value["$ref"]?.stringValue { value = try Schema.resolve(reference, in: document) }
        guard let name = value["name"]?.stringValue, let location = value["in"]?.stringValue, let schema = value["schema"] else {
            throw .invalid("a parameter lacks name, in or schema: \(value)")
        }
        return Parameter(name: name, location: location, required: value["required"]?.boolValue ?? false, schema: try Schema(schema, in: document))
    }

    /// Every `x-check` the document names is one `ContractCheck` has.
    private static func checkNamedChecks(_ schema: Schema) throws(ContractDocumentError) {
        if let check = schema.check, !ContractCheck.names.contains(check) {
            throw .invalid("x-check '\(check)' is not a check of the server (it has: \(ContractCheck.names.sorted().joined(separator: ", ")))")
        }
        for child in schema.properties.map(\.schema) + schema.allOf + schema.anyOf + schema.oneOf + [schema.items, schema.not].compactMap({ $0 }) {
            try checkNamedChecks(child)
        }
    }
}

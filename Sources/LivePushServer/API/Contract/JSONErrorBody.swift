import Foundation

/// Every refusal: `{"error":{"field":…,"rule":…,"message":…}}` (`field` is null when no one field is at fault,
/// which the generated types would leave out, hence this one body of our own).
package struct JSONErrorBody: Codable, Sendable, Hashable {
    package struct Detail: Codable, Sendable, Hashable {
        package var field: String?
        package var rule: String
        package var message: String

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(field, forKey: .field)
            try container.encode(rule, forKey: .rule)
            try container.encode(message, forKey: .message)
        }
    }

    package var error: Detail
}

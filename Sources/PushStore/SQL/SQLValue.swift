import APNsCore
import Foundation

/// A value bound to, or read from, a statement; the same four types exist in SQLite and PostgreSQL
/// (BIGINT, DOUBLE PRECISION, TEXT, BYTEA).
enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null

    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// Dates are stored as seconds since 1970 (a double), which round-trips exactly.
    static func date(_ value: Date) -> SQLValue { .real(value.timeIntervalSince1970) }
    static func date(_ value: Date?) -> SQLValue { value.map { .date($0) } ?? .null }
    static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func int(_ value: Int?) -> SQLValue { value.map { .int($0) } ?? .null }
    static func uuid(_ value: UUID) -> SQLValue { .text(value.lowercased) }
    static func uuid(_ value: UUID?) -> SQLValue { value.map { .uuid($0) } ?? .null }
}

/// Column names of a result, shared by its rows.
final class SQLColumns: Sendable {
    let names: [String]
    let index: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var index = [String: Int]()
        for (offset, name) in names.enumerated() where index[name] == nil { index[name] = offset }
        self.index = index
    }
}

/// One result row with typed accessors that throw `PushStoreError.database` naming the column.
struct SQLRow: Sendable {
    let columns: SQLColumns
    let values: [SQLValue]

    func value(_ column: String) throws(PushStoreError) -> SQLValue {
        guard let offset = columns.index[column] else {
            throw .database(detail: "result has no column '\(column)'")
        }
        return values[offset]
    }

    func optionalString(_ column: String) throws(PushStoreError) -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        case let other: throw Self.mismatch(column, "text", other)
        }
    }

    func string(_ column: String) throws(PushStoreError) -> String {
        guard let text = try optionalString(column) else { throw .database(detail: "column '\(column)' is null") }
        return text
    }

    func optionalInt(_ column: String) throws(PushStoreError) -> Int? {
        switch try value(column) {
        case .null: return nil
        case .integer(let number): return Int(number)
        case .real(let number) where number.rounded() == number: return Int(number)
        case let other: throw Self.mismatch(column, "integer", other)
        }
    }

    func int(_ column: String) throws(PushStoreError) -> Int {
        guard let number = try optionalInt(column) else { throw .database(detail: "column '\(column)' is null") }
        return number
    }

    func bool(_ column: String) throws(PushStoreError) -> Bool { try int(column) != 0 }

    func optionalDate(_ column: String) throws(PushStoreError) -> Date? {
        switch try value(column) {
        case .null: return nil
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        case let other: throw Self.mismatch(column, "seconds since 1970", other)
        }
    }

    func date(_ column: String) throws(PushStoreError) -> Date {
        guard let date = try optionalDate(column) else { throw .database(detail: "column '\(column)' is null") }
        return date
    }

    func data(_ column: String) throws(PushStoreError) -> Data {
        switch try value(column) {
        case .blob(let data): return data
        case let other: throw Self.mismatch(column, "bytes", other)
        }
    }

    func optionalUUID(_ column: String) throws(PushStoreError) -> UUID? {
        guard let text = try optionalString(column) else { return nil }
        guard let uuid = UUID(canonical: text) else {
            throw .database(detail: "column '\(column)' holds '\(text)', not a UUID")
        }
        return uuid
    }

    func uuid(_ column: String) throws(PushStoreError) -> UUID {
        guard let uuid = try optionalUUID(column) else { throw .database(detail: "column '\(column)' is null") }
        return uuid
    }

    /// A stored raw value of a String-backed enum.
    func enumValue<T: RawRepresentable>(_ column: String, as type: T.Type) throws(PushStoreError) -> T
    where T.RawValue == String {
        guard let value = try optionalEnumValue(column, as: type) else { throw .database(detail: "column '\(column)' is null") }
        return value
    }

    func optionalEnumValue<T: RawRepresentable>(_ column: String, as type: T.Type) throws(PushStoreError) -> T?
    where T.RawValue == String {
        guard let raw = try optionalString(column) else { return nil }
        guard let value = T(rawValue: raw) else {
            throw .database(detail: "column '\(column)' holds '\(raw)', not a known \(T.self)")
        }
        return value
    }

    private static func mismatch(_ column: String, _ expected: String, _ found: SQLValue) -> PushStoreError {
        .database(detail: "column '\(column)' holds \(found), expected \(expected)")
    }
}

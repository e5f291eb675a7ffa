import Foundation
import Hummingbird
import LiveActivity
import NIOCore
import NIOHTTP1

/// Reads a request body as a JSON object, naming the field and the rule on every problem.
struct JSONBody: Sendable {
    static let maximumBytes = 64 * 1024

    let fields: [String: JSONValue]
    /// The path of this object in the body (`alert.`), prefixed to field names in errors.
    let prefix: String

    init(fields: [String: JSONValue], prefix: String = "") {
        self.fields = fields
        self.prefix = prefix
    }

    /// Collects and parses the body; an empty body is `{}` when `allowEmpty`.
    static func read(_ request: Request, allowEmpty: Bool = false) async throws(APIError) -> JSONBody {
        try parse(try await collect(request), allowEmpty: allowEmpty)
    }

    /// The body's bytes, at most `maximumBytes`. A body the HTTP decoder cannot frame (a chunk size that
    /// is not hex digits) is a bad request, not one too large.
    static func collect(_ request: Request) async throws(APIError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: maximumBytes)
        } catch let error as HTTPParserError {
            throw APIError(
                .badRequest, field: nil, rule: "framing",
                "the request body is not framed as HTTP/1.1 requires (\(error)); send Content-Length or valid chunked encoding")
        } catch {
            throw APIError(.contentTooLarge, field: nil, rule: "maxBodySize", "the request body is over \(maximumBytes) bytes")
        }
    }

    /// Parses collected body bytes as a JSON object; an empty body is `{}` when `allowEmpty`.
    static func parse(_ buffer: ByteBuffer, allowEmpty: Bool = false) throws(APIError) -> JSONBody {
        if buffer.readableBytes == 0 {
            if allowEmpty { return JSONBody(fields: [:]) }
            throw .badRequest(nil, "required", "the request body is empty; expected a JSON object")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(buffer.readableBytesView))
        } catch .invalidUTF8(let path, _) {
            throw .badRequest(
                path.isEmpty ? nil : path, "utf8", "'\(path)' is not valid UTF-8; JSON text must be UTF-8 (nothing is replaced or stored)")
        } catch {
            throw .badRequest(nil, "json", "the request body is not valid JSON: \(error.description)")
        }
        guard let object = value.objectValue else {
            throw .badRequest(nil, "object", "the request body is a JSON \(value.typeName); expected a JSON object")
        }
        return JSONBody(fields: object)
    }

    func name(_ key: String) -> String { prefix + key }

    /// Rejects keys the route does not read, so a typo is not silently ignored.
    func allowOnly(_ keys: Set<String>) throws(APIError) {
        for key in fields.keys.sorted() where !keys.contains(key) {
            let accepted = keys.isEmpty ? "it takes no fields (send no body or {})" : "accepted: \(keys.sorted().joined(separator: ", "))"
            throw .badRequest(name(key), "unknown", "'\(name(key))' is not a field of this request; \(accepted)")
        }
    }

    func has(_ key: String) -> Bool {
        if let value = fields[key], value != .null { return true }
        return false
    }

    func string(_ key: String, maxLength: Int = 256) throws(APIError) -> String? {
        guard let value = fields[key], value != .null else { return nil }
        guard let text = value.stringValue else {
            throw .badRequest(name(key), "type", "'\(name(key))' is a JSON \(value.typeName); expected a string")
        }
        guard !text.isEmpty else {
            throw .badRequest(name(key), "nonEmpty", "'\(name(key))' is empty; expected 1 to \(maxLength) characters")
        }
        try Self.checkBytes(name(key), text, maxLength: maxLength)
        guard text.count <= maxLength else {
            throw .badRequest(name(key), "maxLength", "'\(name(key))' has \(text.count) characters; at most \(maxLength) are accepted")
        }
        return text
    }

    /// A character is a grapheme cluster, which can hold any number of scalars ("e" and 10,000 combining
    /// accents is one character), so a text of at most `maxLength` characters is also held to 4 bytes of
    /// UTF-8 per character: what `maxLength` characters of one scalar each can take. Checked before the
    /// characters are counted, which is itself work proportional to the bytes.
    static func checkBytes(_ field: String, _ text: String, maxLength: Int) throws(APIError) {
        let bytes = text.utf8.count
        guard bytes > 4 * maxLength else { return }
        throw .badRequest(
            field, "maxBytes",
            "'\(field)' is \(bytes) bytes of UTF-8; at most \(4 * maxLength) are accepted (\(maxLength) characters of at most 4 bytes each)")
    }

    func requiredString(_ key: String, maxLength: Int = 256) throws(APIError) -> String {
        guard let text = try string(key, maxLength: maxLength) else {
            throw .badRequest(name(key), "required", "'\(name(key))' is required (a string)")
        }
        return text
    }

    func bool(_ key: String) throws(APIError) -> Bool? {
        try typed(key, rule: "type", expected: "true or false") { $0.boolValue }
    }

    func number(_ key: String) throws(APIError) -> Double? {
        try typed(key, rule: "type", expected: "a finite number") { value in value.numberValue.flatMap { $0.isFinite ? $0 : nil } }
    }

    /// A whole number (`60`, not `60.5` or `"60"`).
    func integer(_ key: String) throws(APIError) -> Int? {
        try typed(key, rule: "integer", expected: "a whole number") { value in
            value.numberValue.flatMap { $0.isFinite && $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }
        }
    }

    func object(_ key: String) throws(APIError) -> JSONBody? {
        try typed(key, rule: "object", expected: "a JSON object") { $0.objectValue }.map { JSONBody(fields: $0, prefix: name(key) + ".") }
    }

    /// The field read by `extract` (nil when absent or null); a value of another type breaks `rule`.
    private func typed<Value>(
        _ key: String, rule: String, expected: String, _ extract: (JSONValue) -> Value?
    ) throws(APIError) -> Value? {
        guard let value = fields[key], value != .null else { return nil }
        guard let typed = extract(value) else {
            throw .badRequest(name(key), rule, "'\(name(key))' is a JSON \(value.typeName); expected \(expected)")
        }
        return typed
    }

    /// A JSON object kept as a value (content-state, attributes).
    func objectValue(_ key: String) throws(APIError) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        guard value.objectValue != nil else {
            throw .badRequest(name(key), "object", "'\(name(key))' is a JSON \(value.typeName); expected a JSON object")
        }
        return value
    }

    func stringArray(_ key: String, maxCount: Int, maxLength: Int = 128) throws(APIError) -> [String]? {
        guard let value = fields[key], value != .null else { return nil }
        guard let array = value.arrayValue else {
            throw .badRequest(name(key), "type", "'\(name(key))' is a JSON \(value.typeName); expected an array of strings")
        }
        guard array.count <= maxCount else {
            throw .badRequest(name(key), "maxCount", "'\(name(key))' has \(array.count) entries; at most \(maxCount) are accepted")
        }
        var out: [String] = []
        for (index, element) in array.enumerated() {
            if let text = element.stringValue { try Self.checkBytes("\(name(key))[\(index)]", text, maxLength: maxLength) }
            guard let text = element.stringValue, !text.isEmpty, text.count <= maxLength else {
                throw .badRequest("\(name(key))[\(index)]", "type", "'\(name(key))[\(index)]' must be a string of 1 to \(maxLength) characters")
            }
            out.append(text)
        }
        return out
    }

    /// A date as ISO 8601 (`2026-11-22T10:00:00Z`) or Unix seconds (a number or a string of digits).
    /// The earliest date accepted: 2001-01-01T00:00:00Z (nothing about a Live Activity is older).
    static let earliestDate = Date(timeIntervalSinceReferenceDate: 0)
    /// For a dismissal date any past moment means "at once", and 0 is the usual way to say it.
    static let earliestDismissal = Date(timeIntervalSince1970: 0)
    /// Every date is before 2100-01-01T00:00:00Z (Unix 4102444800). A Live Activity lasts hours, so
    /// anything later is a unit mistake (milliseconds for seconds) or a placeholder such as 9999-12-31.
    /// A fixed bound rather than one counted from now, so /openapi.json can state it exactly.
    static let endOfDates = Date(timeIntervalSince1970: 4_102_444_800)

    /// A date: Unix seconds, ISO 8601 or relative (`+30m`), from `earliest` (2001-01-01T00:00:00Z by
    /// default) to before 2100-01-01T00:00:00Z, and at most `maximumAhead` from now when given.
    func date(
        _ key: String, now: Date, earliest: Date = JSONBody.earliestDate, maximumAhead: TimeInterval? = nil
    ) throws(APIError) -> Date? {
        guard let value = fields[key], value != .null else { return nil }
        let date: Date
        let formatter = ISO8601DateFormatter()
        let window =
            "from \(formatter.string(from: earliest)) (Unix \(Int(earliest.timeIntervalSince1970))) to before \(formatter.string(from: Self.endOfDates)) (Unix \(Int(Self.endOfDates.timeIntervalSince1970)))"
        switch value {
        case .number(let seconds):
            guard seconds.isFinite else {
                throw .badRequest(name(key), "date", "'\(name(key))' is \(seconds); expected Unix seconds or ISO 8601 such as 2026-11-22T10:00:00Z")
            }
            // Compared as the number given: a Date rounds (-1e-300 s becomes exactly 1970-01-01).
            guard seconds >= earliest.timeIntervalSince1970, seconds < Self.endOfDates.timeIntervalSince1970 else {
                throw .badRequest(name(key), "dateRange", "'\(name(key))' is \(JSONValue.number(seconds)) seconds; accepted: \(window)")
            }
            date = Date(timeIntervalSince1970: seconds)
        case .string(let text):
            do {
                date = try DateInput.parse(text, now: now)
            } catch {
                throw .badRequest(name(key), "date", "'\(name(key))': \(error.description)")
            }
        default:
            throw .badRequest(name(key), "date", "'\(name(key))' is a JSON \(value.typeName); expected Unix seconds or an ISO 8601 string")
        }
        guard date >= earliest, date < Self.endOfDates else {
            throw .badRequest(name(key), "dateRange", "'\(name(key))' is \(formatter.string(from: date)); accepted: \(window)")
        }
        if let maximumAhead {
            let latest = now.addingTimeInterval(maximumAhead)
            guard date <= latest else {
                let ahead = maximumAhead >= 86_400 ? "\(Int(maximumAhead / 86_400)) days" : "\(Int(maximumAhead)) seconds"
                throw .badRequest(
                    name(key), "dateRange",
                    "'\(name(key))' is \(formatter.string(from: date)); accepted: at most \(ahead) from now (\(formatter.string(from: latest)))")
            }
        }
        return date
    }
}

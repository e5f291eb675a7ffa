import Foundation

/// The values a setting accepts, declared with the setting (``Setting``), and the rule a refused
/// value is told: "must be 1 to 10000", "must be more than 0 seconds".
struct Accepted<Value>: Sendable {
    let rule: String
    let contains: @Sendable (Value) -> Bool

    init(_ rule: String, _ contains: @escaping @Sendable (Value) -> Bool) {
        self.rule = rule
        self.contains = contains
    }

    /// Any value the setting's form can hold.
    static var any: Accepted { Accepted("") { _ in true } }
}

extension Accepted where Value == Int {
    /// "must be 1 to 10000 requests", with "(no limit)" after a lower bound of 0 that means none.
    static func from(_ range: ClosedRange<Int>, _ unit: String = "", zero: String? = nil) -> Accepted {
        let lower = "\(range.lowerBound)" + (zero.map { " (\($0))" } ?? "")
        return Accepted("must be \(lower) to \(range.upperBound)" + (unit.isEmpty ? "" : " " + unit)) { range.contains($0) }
    }

    /// "must be 1 or more".
    static func atLeast(_ minimum: Int) -> Accepted {
        Accepted("must be \(minimum) or more") { $0 >= minimum }
    }
}

extension Accepted where Value == TimeInterval {
    /// "must be more than 0 seconds", or "… and at most 60 seconds".
    static func positive(atMost maximum: TimeInterval? = nil) -> Accepted {
        guard let maximum else { return Accepted("must be more than 0 seconds") { $0 > 0 } }
        return Accepted("must be more than 0 and at most \(Int(maximum)) seconds") { $0 > 0 && $0 <= maximum }
    }

    /// "must be 0 or more seconds".
    static var notNegative: Accepted { Accepted("must be 0 or more seconds") { $0 >= 0 } }
}

extension Accepted where Value == String? {
    /// A secret of at least `count` characters (UTF-8 bytes when `bytes`), when one is given.
    static func secret(atLeast count: Int, bytes: Bool = false, _ rule: String) -> Accepted {
        Accepted(rule) { secret in secret.map { (bytes ? $0.utf8.count : $0.count) >= count } ?? true }
    }
}

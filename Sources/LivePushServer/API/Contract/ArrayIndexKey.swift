/// An array element's place in a coding path: its index (``JSONValueDecoder``, ``JSONValueEncoder``).
struct ArrayIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

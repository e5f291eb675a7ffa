/// The world's activities by id, stored densely: the activities in one array, and an index from id to
/// position. A dictionary holding the activities themselves keeps about 2.6 buckets per activity (a
/// power-of-two capacity at most 75% full), each the size of a whole activity: about 70 MB for the
/// 100,000 subscribers of one broadcast channel, where this layout needs about a third.
struct ActivityTable: Sendable {
    private var slots: [SimulatedActivity?] = []
    private var positions: [String: Int] = [:]

    var keys: Dictionary<String, Int>.Keys { positions.keys }
    var count: Int { positions.count }

    /// Room for `capacity` activities; grows at least geometrically, so that many small reservations
    /// stay linear.
    mutating func reserveCapacity(_ capacity: Int) {
        guard capacity > slots.capacity else { return }
        let target = max(capacity, slots.capacity * 2)
        slots.reserveCapacity(target)
        positions.reserveCapacity(target)
    }

    subscript(id: String) -> SimulatedActivity? {
        get { positions[id].flatMap { slots[$0] } }
        set {
            if let position = positions[id] {
                if let newValue { slots[position] = newValue } else { remove(at: position, id: id) }
            } else if let newValue {
                positions[id] = slots.count
                slots.append(newValue)
            }
        }
        // In place: the slot is emptied while the caller mutates the activity, so the activity's own
        // arrays (history, alerts) are uniquely referenced and grow without being copied.
        _modify {
            if let position = positions[id] {
                var value = slots[position]
                slots[position] = nil
                defer {
                    if let value { slots[position] = value } else { remove(at: position, id: id) }
                }
                yield &value
            } else {
                var value: SimulatedActivity?
                defer {
                    if let value {
                        positions[id] = slots.count
                        slots.append(value)
                    }
                }
                yield &value
            }
        }
    }

    /// Removes the activity at `position`, moving the last one into its place.
    private mutating func remove(at position: Int, id: String) {
        positions[id] = nil
        let last = slots.count - 1
        if position != last, let moved = slots[last] {
            slots[position] = moved
            positions[moved.id] = position
        }
        slots.removeLast()
    }
}

/// The members waiting for the next group and whether a runner is storing groups: the state, behind their
/// locks, of ``GroupCommit`` (transactions sharing a commit) and ``WriteGroups`` (writes sharing a
/// transaction). One runner at a time takes group after group; it stops when none is left.
struct GroupQueue<Member> {
    private(set) var waiting: [Member] = []
    private var running = false

    /// Adds `member`; true when no runner is running, so the caller starts one.
    mutating func add(_ member: Member) -> Bool {
        waiting.append(member)
        guard !running else { return false }
        running = true
        return true
    }

    /// The runner's next group, cut from the waiting members by `cut` (the group, and those left waiting);
    /// nil, and the runner stops, when the group is empty.
    mutating func next(_ cut: ([Member]) -> (group: [Member], left: [Member])) -> [Member]? {
        let (group, left) = cut(waiting)
        waiting = left
        guard !group.isEmpty else {
            running = false
            return nil
        }
        return group
    }
}

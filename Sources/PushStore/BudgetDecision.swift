/// The answer of ``PushStore/consumeHighPriority(activityId:at:limit:)``.
public struct BudgetDecision: Sendable, Hashable, Codable {
    /// True when the push may go out at priority 10 (and was counted).
    public var granted: Bool
    /// Priority-10 pushes in the window, including this one when granted.
    public var usedInWindow: Int
    /// The budget that was applied.
    public var limit: Int

    public init(granted: Bool, usedInWindow: Int, limit: Int) {
        self.granted = granted
        self.usedInWindow = usedInWindow
        self.limit = limit
    }
}

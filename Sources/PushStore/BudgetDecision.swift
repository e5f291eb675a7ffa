/// The answer of ``PriorityBudget/consumeHighPriority(_:at:)`` for one activity.
package struct BudgetDecision: Sendable, Hashable, Codable {
    /// True when the push may go out at priority 10 (and was counted).
    package var granted: Bool
    /// Priority-10 pushes in the window, including this one when granted.
    package var usedInWindow: Int
    /// The budget that was applied.
    package var limit: Int
}

import Foundation
import Metrics
import Synchronization

/// A write the store may run together with others that arrive with it (``WriteGroups``).
protocol GroupedWrite: Sendable {
    associatedtype Outcome: Sendable

    /// What the write touches (rows, by a key of the write's choosing): a group never holds two writes that
    /// share a key, so a group's statements never order two changes to one row. Nil: stored alone.
    var groupKeys: Set<String>? { get }

    /// The write as a transaction of its own.
    func storeAlone(in store: SQLPushStore) async throws(PushStoreError) -> Outcome

    /// Writes sharing no key, in the order they arrived, as one transaction: each one's own result, a
    /// refused write having left nothing behind (its refusal is its caller's answer, the others commit).
    /// Throws when the shared transaction fails: each write is then stored alone.
    static func storeTogether(_ writes: [Self], in store: SQLPushStore) async throws(PushStoreError) -> [Result<Outcome, PushStoreError>]
}

/// Writes stored together: those that arrive while a group is being stored wait, then are stored together
/// as one transaction whose statements each write for the whole group (one insert of all their rows, one
/// commit), instead of a transaction of several statements each. On PostgreSQL each statement is a round
/// trip; on SQLite, whose group commit already shares the commit, a group is one transaction body on the
/// one writer instead of one each. Acceptances (``Acceptance``) and registrations
/// (``GroupedRegistration``) are grouped this way.
///
/// Each caller still gets what its own transaction would have given it:
/// - it is answered after the shared commit: a 201 or 202 still means durable;
/// - its answer is its own outcome (or its own refusal, which leaves the others stored);
/// - when the shared transaction fails, for whatever reason, each member is stored again alone, and so
///   gets its own error (or succeeds) as it would have without the group.
///
/// A group never holds two writes sharing a key (``GroupedWrite/groupKeys``): one that shares a key with
/// the group waits for the next, and never passes an earlier one left waiting.
///
/// One group is stored at a time, in a task of its own, so one caller's cancellation (a client that went
/// away) does not cancel the others' statements. Two at once were tried for acceptances: on the benchmark
/// machine (2 cores, the database on the same machine) they made smaller groups, more round trips and no
/// more updates per second (Benchmarks/intake.sh on PostgreSQL, 2026-11-29). The next group starts once
/// this one's transaction has committed (``SQLCommitNotice``): on SQLite, while this one's callers still
/// wait for the log's sync.
///
/// Measured: a recorder of writes per group (`label`), and `livepush_store_duration_seconds` with the
/// operation each store names.
final class WriteGroups<Write: GroupedWrite>: Sendable {
    private struct Member: Sendable {
        var write: Write
        var keys: Set<String>
        var finish: @Sendable (Result<Write.Outcome, PushStoreError>) -> Void
    }

    private struct State {
        var queue = GroupQueue<Member>()
        var largestGroup = 0
    }

    private let state = Mutex(State())
    private let maximumGroup: Int
    private let groupSize: Recorder

    /// - Parameter maximumGroup: the most writes one group takes; the rest wait for the next.
    init(label: String, backend: String, maximumGroup: Int = 128) {
        self.maximumGroup = max(1, maximumGroup)
        groupSize = Recorder(label: label, dimensions: [("backend", backend)])
    }

    /// The most writes one group has held so far (for tests).
    var largestGroup: Int { state.withLock { $0.largestGroup } }

    /// Stores `write` (already validated) with whatever arrives with it; see the type.
    func store(_ write: Write, in store: SQLPushStore) async throws(PushStoreError) -> Write.Outcome {
        guard let keys = write.groupKeys else { return try await write.storeAlone(in: store) }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Write.Outcome, PushStoreError>, Never>) in
            let member = Member(write: write, keys: keys) { continuation.resume(returning: $0) }
            let start = state.withLock { $0.queue.add(member) }
            if start {
                Task { await SQLCommitNotice.$current.withValue(nil) { await self.runGroups(store) } }
            }
        }
        return try result.get()
    }

    /// Stores groups until none is waiting: each from when the one before has committed.
    private func runGroups(_ store: SQLPushStore) async {
        while let group = nextGroup() {
            groupSize.record(group.count)
            await SQLCommitNotice.runUntilCommitted { await Self.run(group, store) }
        }
    }

    /// One group, each member answered with its own outcome.
    private static func run(_ group: [Member], _ store: SQLPushStore) async {
        if group.count == 1 {
            await alone(group[0], store)
            return
        }
        do throws(PushStoreError) {
            let results = try await Write.storeTogether(group.map(\.write), in: store)
            guard results.count == group.count else {
                throw .database(detail: "a grouped write answered \(results.count) of \(group.count) members")
            }
            for (member, result) in zip(group, results) { member.finish(result) }
        } catch {
            // Each alone, so that each gets its own error, or succeeds; the next group waits for all of
            // them (the notice is not theirs to give), so a later write of their rows never passes them.
            await SQLCommitNotice.$current.withValue(nil) {
                await withTaskGroup(of: Void.self) { tasks in
                    for member in group {
                        tasks.addTask { await Self.alone(member, store) }
                    }
                }
            }
        }
    }

    private static func alone(_ member: Member, _ store: SQLPushStore) async {
        do throws(PushStoreError) {
            member.finish(.success(try await member.write.storeAlone(in: store)))
        } catch {
            member.finish(.failure(error))
        }
    }

    /// The next group of the waiting writes (``split(_:maximum:keys:)``); the others stay.
    private func nextGroup() -> [Member]? {
        state.withLock { state in
            guard let group = state.queue.next({ Self.split($0, maximum: maximumGroup, keys: \.keys) }) else { return nil }
            state.largestGroup = max(state.largestGroup, group.count)
            return group
        }
    }

    /// The waiting, in order, that share no key with one taken before them, nor with one left waiting
    /// before them (a later write of a row never passes an earlier one), up to `maximum`; and the others,
    /// in order.
    static func split<Waiting>(_ waiting: [Waiting], maximum: Int, keys: (Waiting) -> Set<String>) -> (group: [Waiting], left: [Waiting]) {
        var group = [Waiting]()
        var left = [Waiting]()
        var seen = Set<String>()
        for member in waiting {
            let touched = keys(member)
            if group.count < maximum, seen.isDisjoint(with: touched) {
                group.append(member)
            } else {
                left.append(member)
            }
            seen.formUnion(touched)
        }
        return (group, left)
    }
}

import Foundation
import Logging
import PushStore

/// A page of a send handed out to the workers: a slice of a group send's members or of an audience start's
/// users, named by its send and its first member.
protocol SendPage: Sendable {
    var sendID: UUID { get }
    var firstID: String { get }
}

/// What the store answers when a worker records a page: whether the worker still held it.
protocol SendPageReport: Sendable {
    /// False when another worker took the page over after the lease ended: nothing was written.
    var held: Bool { get }
}

/// What the two page queues (``GroupPageQueue``, ``AudiencePageQueue``) share: how logs name a page, and
/// the one store call that records it, with what a failed or superseded recording means for the page.
protocol SendPageQueue: LeasedPageQueue where Page: SendPage {
    var context: WorkerContext { get }
}

extension SendPageQueue {
    func subject(of page: Page, owner: String) -> Logger.Metadata {
        ["owner": "\(owner)", "sendId": "\(page.sendID.lowercased)", "first": "\(page.firstID)"]
    }

    /// The report of `complete`, which records the page; nil (and logged) when the store could not take it
    /// (the page is sent again when its claim expires) or another worker holds the page now. `noun` names
    /// the kind of page in the logs ("a group page").
    func completed<Report: SendPageReport>(
        _ page: Page, as noun: String, by complete: () async throws(PushStoreError) -> Report
    ) async -> Report? {
        let report: Report
        do {
            report = try await complete()
        } catch {
            context.logger.error(
                "recording \(noun) failed; it will be sent again when its claim expires",
                metadata: ["sendId": "\(page.sendID.lowercased)", "first": "\(page.firstID)", "error": "\(error)"])
            return nil
        }
        guard report.held else {
            context.logger.warning(
                "\(noun)'s claim was taken over before its outcomes were recorded",
                metadata: ["sendId": "\(page.sendID.lowercased)", "first": "\(page.firstID)"])
            return nil
        }
        return report
    }
}

extension GroupSendPage: SendPage {
    var sendID: UUID { send.sendID }
}

extension AudienceStartPage: SendPage {
    var sendID: UUID { send.sendID }
}

extension GroupSendPageReport: SendPageReport {}
extension AudienceStartPageReport: SendPageReport {}

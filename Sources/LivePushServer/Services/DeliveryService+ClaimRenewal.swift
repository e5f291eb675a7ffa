import Foundation
import Logging
import PushStore

extension DeliveryService {
    /// How often a worker renews the claim on what it is sending: a third of the lease, so one late
    /// renewal still leaves time for the next before the lease ends.
    var claimRenewalInterval: Duration { .milliseconds(Int64(configuration.claimLease * 1000 / 3)) }

    /// Runs `body` while renewing its claim every third of the lease, so work that outlasts the lease
    /// (a slow APNs, a loaded store) is not handed to another worker and sent twice. `renew` extends the
    /// claim to the date it is given and answers whether it is still held; once it is not, renewal stops
    /// (what is in flight finishes, and its completion is refused as not held).
    func renewingClaim<Result: Sendable>(
        on subject: Logger.Metadata,
        renew: @escaping @Sendable (Date) async throws(PushStoreError) -> Bool,
        _ body: () async -> Result
    ) async -> Result {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    do { try await Task.sleep(for: self.claimRenewalInterval) } catch { return }
                    do {
                        guard try await renew(self.clock.now().addingTimeInterval(self.configuration.claimLease)) else {
                            self.logger.warning("a claim was taken over while its work was still being sent", metadata: subject)
                            self.metrics.recordClaimLost()
                            return
                        }
                        self.metrics.recordClaimRenewal()
                    } catch {
                        // The next renewal may succeed; the lease covers two more intervals.
                        self.logger.warning("renewing a claim failed", metadata: subject.merging(["error": "\(error)"]) { $1 })
                    }
                }
            }
            let result = await body()
            group.cancelAll()
            return result
        }
    }
}

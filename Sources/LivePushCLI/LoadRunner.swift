import APNsClient
import APNsCore
import Foundation

/// Sends N copies of a request with C in flight, in batches, and measures rate and latency (`livepush send --count`).
struct LoadRunner {
    let client: APNsClient
    let request: APNsRequest
    let count: Int
    let concurrency: Int

    struct Report {
        var sent: Int
        var accepted: Int
        var failures: Int
        var failureKinds: [String: Int]
        var seconds: Double
        var cpuSeconds: Double
        var latencies: [Double]

        var summary: String {
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> String {
                guard !sorted.isEmpty else { return "-" }
                let index = min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)
                return String(format: "%.2f ms", sorted[max(0, index)] * 1000)
            }
            var lines = [
                "sent: \(sent), accepted: \(accepted), failed: \(failures)",
                String(format: "time: %.3f s, rate: %.0f pushes/s, client CPU: %.3f s", seconds, Double(sent) / seconds, cpuSeconds),
                "latency p50: \(percentile(50)), p90: \(percentile(90)), p99: \(percentile(99)), max: \(percentile(100))",
            ]
            for (kind, number) in failureKinds.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(kind): \(number)")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// How many pushes one batch carries: a quarter of those in flight (at most 32), so that while one
    /// worker waits for its batch's last answer the others keep the connection busy.
    static func batchSize(concurrency: Int) -> Int { max(1, min(32, concurrency / 4)) }

    func run() async -> Report {
        let cpuStart = ProcessCPU.seconds()
        let start = ContinuousClock.now
        // Workers each send one batch at a time (`APNsClient.deliver(batch:)`, no task per push); their
        // batches add up to `concurrency` in flight.
        let batch = Self.batchSize(concurrency: concurrency)
        let batches = (0..<(concurrency + batch - 1) / batch).map { min(batch, concurrency - $0 * batch) }
        let results = await withTaskGroup(of: [(Double, String?)].self) { group in
            let perWorker = count / batches.count
            let remainder = count % batches.count
            for (worker, size) in batches.enumerated() {
                let share = perWorker + (worker < remainder ? 1 : 0)
                guard share > 0 else { continue }
                group.addTask {
                    var local = [(Double, String?)]()
                    local.reserveCapacity(share)
                    var left = share
                    while left > 0 {
                        let outcomes = await client.deliver(batch: Array(repeating: request, count: min(size, left)))
                        left -= outcomes.count
                        for outcome in outcomes {
                            let failure: String? =
                                switch outcome.result {
                                case .success(let response): response.isSuccess ? nil : "\(response.status) \(response.reason?.rawValue ?? "")"
                                case .failure(let error): "\(error)"
                                }
                            let elapsed = outcome.duration.components
                            local.append((Double(elapsed.attoseconds) / 1e18 + Double(elapsed.seconds), failure))
                        }
                    }
                    return local
                }
            }
            var all = [(Double, String?)]()
            all.reserveCapacity(count)
            for await part in group { all.append(contentsOf: part) }
            return all
        }
        let elapsed = ContinuousClock.now - start
        var kinds = [String: Int]()
        for case (_, let failure?) in results { kinds[failure, default: 0] += 1 }
        let failures = kinds.values.reduce(0, +)
        return Report(
            sent: results.count, accepted: results.count - failures, failures: failures, failureKinds: kinds,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: ProcessCPU.seconds() - cpuStart,
            latencies: results.map { $0.0 }
        )
    }
}

/// The CPU time this process has used (user + system).
enum ProcessCPU {
    static func seconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

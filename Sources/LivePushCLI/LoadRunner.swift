import APNsClient
import APNsCore
import Foundation

/// Sends N copies of a request with C in flight and measures rate and latency (`livepush send --count`).
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

    func run() async -> Report {
        let cpuStart = ProcessCPU.seconds()
        let start = ContinuousClock.now
        let results = await withTaskGroup(of: [(Double, String?)].self) { group in
            let perWorker = count / concurrency
            let remainder = count % concurrency
            for worker in 0..<concurrency {
                let share = perWorker + (worker < remainder ? 1 : 0)
                guard share > 0 else { continue }
                group.addTask {
                    var local = [(Double, String?)]()
                    local.reserveCapacity(share)
                    for _ in 0..<share {
                        let began = ContinuousClock.now
                        let outcome: String?
                        do {
                            let response = try await client.send(request)
                            outcome = response.isSuccess ? nil : "\(response.status) \(response.reason?.rawValue ?? "")"
                        } catch {
                            outcome = "\(error)"
                        }
                        let elapsed = ContinuousClock.now - began
                        local.append((Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds), outcome))
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

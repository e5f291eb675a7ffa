import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// Sends N identical APNs requests with C in flight through async-http-client (HTTP/2 over TLS) and
/// prints the same summary as `livepush send --count`.
@main
struct AHCBench: AsyncParsableCommand {
    @Option var url: String
    @Option(name: .customLong("ca-file")) var caFile: String
    @Option var jwt: String
    @Option var topic: String
    @Option(name: .customLong("body-file")) var bodyFile: String
    @Option var count: Int = 10_000
    @Option var concurrency: Int = 100

    func run() async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(caFile)]
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let body = try Data(contentsOf: URL(fileURLWithPath: bodyFile))
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-push-type", value: "liveactivity")
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-priority", value: "5")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let template = request

        // Warm up: the first request lifts APNs' stream limit from 1.
        _ = try await client.execute(template, timeout: .seconds(30)).body.collect(upTo: 1 << 16)

        let cpuStart = cpuSeconds()
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
                group.addTask {
                    var local = [Double]()
                    for _ in 0..<share {
                        let began = ContinuousClock.now
                        let response = try await client.execute(template, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 16)
                        guard response.status.code == 200 else { throw ExitCode(1) }
                        let elapsed = ContinuousClock.now - began
                        local.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                    }
                    return local
                }
            }
            var all = [Double]()
            for try await part in group { all += part }
            return all
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double {
            sorted[max(0, min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))] * 1000
        }
        print("sent: \(sorted.count), accepted: \(sorted.count), failed: 0")
        print(
            String(format: "time: %.3f s, rate: %.0f pushes/s, client CPU: %.3f s", seconds, Double(sorted.count) / seconds, cpuSeconds() - cpuStart))
        print(
            String(
                format: "latency p50: %.2f ms, p90: %.2f ms, p99: %.2f ms, max: %.2f ms", percentile(50), percentile(90), percentile(99),
                percentile(100)))
        try await client.shutdown()
    }

    private func cpuSeconds() -> Double {
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

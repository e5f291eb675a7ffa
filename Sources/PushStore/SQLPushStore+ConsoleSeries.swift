import Foundation

/// The console's series: pushes per minute by outcome and their acceptance-to-outcome latencies, counted
/// by the database (one row per minute, outcome and latency bucket), from the history records (through
/// `deliveries_recorded`) and the page records of group sends (`group_send_page_records_recorded`).
extension SQLPushStore {
    static let maximumSeriesMinutes = 1440

    package func deliverySeries(since: Date, minutes: Int) async throws(PushStoreError) -> [DeliveryMinute] {
        guard (1...Self.maximumSeriesMinutes).contains(minutes) else {
            throw .invalidInput(field: "minutes", rule: "is \(minutes); a series holds 1 to \(Self.maximumSeriesMinutes) minutes")
        }
        let until = since + Double(minutes) * 60
        // The minute of a row in whole milliseconds and integer division (SQLite has no FLOOR without its
        // math functions; PostgreSQL rounds a cast where SQLite truncates, which moves no row by a millisecond).
        let sinceMilliseconds = SQLValue.int(Int((since.timeIntervalSince1970 * 1000).rounded(.down)))
        let range: [SQLValue] = [.date(since), .date(until)]
        let records = try await run("deliverySeries", readOnly: true) { session throws(PushStoreError) in
            try await session.query(
                """
                SELECT (CAST(recorded_at * 1000 AS BIGINT) - ?) / 60000 AS minute, outcome,
                    \(Self.latencyBucket("recorded_at - accepted_at")) AS bucket, COUNT(*) AS n
                FROM deliveries WHERE recorded_at >= ? AND recorded_at < ? GROUP BY 1, 2, 3
                """, [sinceMilliseconds] + range
            ) { row throws(PushStoreError) in
                (
                    minute: try row.int("minute"), outcome: try row.enumValue("outcome", as: DeliveryOutcome.self),
                    bucket: try row.int("bucket"), count: try row.int("n")
                )
            }
        }
        // The pushes group pages sent as planned: accepted, each page's count at its latency.
        let pages = try await run("deliverySeriesPages", readOnly: true) { session throws(PushStoreError) in
            try await session.query(
                """
                SELECT (CAST(p.recorded_at * 1000 AS BIGINT) - ?) / 60000 AS minute,
                    \(Self.latencyBucket("p.recorded_at - s.accepted_at")) AS bucket, CAST(SUM(p.accepted) AS BIGINT) AS n
                FROM group_send_page_records p JOIN group_sends s ON s.send_id = p.send_id
                WHERE p.recorded_at >= ? AND p.recorded_at < ? GROUP BY 1, 2
                """, [sinceMilliseconds] + range
            ) { row throws(PushStoreError) in
                (minute: try row.int("minute"), outcome: DeliveryOutcome.accepted, bucket: try row.int("bucket"), count: try row.int("n"))
            }
        }
        var series = (0..<minutes).map { DeliveryMinute(start: since + Double($0) * 60) }
        for entry in records + pages where series.indices.contains(entry.minute) {
            series[entry.minute].counts[entry.outcome, default: 0] += entry.count
            // A coalesced push was never sent: it has no latency.
            if entry.outcome != .coalesced { series[entry.minute].latency.add(bucket: entry.bucket, count: entry.count) }
        }
        return series
    }

    /// The SQL of `LatencyHistogram.bucket(of:)` for a latency in seconds: the first bound it is below.
    static func latencyBucket(_ latency: String) -> String {
        let bounds = LatencyHistogram.bounds.enumerated().map { "WHEN \(latency) < \($0.element) THEN \($0.offset)" }
        return "CASE \(bounds.joined(separator: " ")) ELSE \(LatencyHistogram.bounds.count) END"
    }
}

import NIOCore
import NIOHPACK

/// Who waits for one request's answer on a connection: a caller's completion (one request per call), or
/// one slot of a batch (`APNsConnection.execute(batch:authorization:timeout:)`).
enum ExchangeWaiter {
    case single(APNsRequestsHandler.Completion)
    case batch(BatchCollector, index: Int)

    /// Hands over the answer or the typed error; called once, on the connection's event loop.
    func resume(_ result: Result<WireResponse, APNsClientError>) {
        switch self {
        case .single(let complete): complete(result)
        case .batch(let collector, let index): collector.record(result, at: index)
        }
    }
}

/// One request of a batch, ready for the wire: its header block and body, and its place in the batch.
struct BatchRequest: Sendable {
    var index: Int
    var headers: HPACKHeaders
    var body: ByteBuffer
}

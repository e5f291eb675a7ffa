import Foundation
import NIOCore
import NIOPosix

/// Checks, before anything is written to disk, that the simulator's ports can be listened on: a port
/// that is taken fails with the same message the endpoint gives, and no certificate is made for a
/// simulator that would not start.
public enum ListenCheck {
    /// A port that cannot be listened on, with the flag that chose it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var flag: String
        public var reason: String

        public var description: String {
            "cannot listen on \(host):\(port): \(reason); pick another --host/\(flag) (0 picks a free port)"
        }
    }

    /// Binds and closes a listening socket on each `(host, port)`; port 0 always passes.
    public static func check(_ addresses: [(host: String, port: Int, flag: String)]) async throws(Failure) {
        for address in addresses where address.port != 0 {
            do {
                // SO_REUSEADDR as the endpoint and the control API set it: a port whose last connections
                // are in TIME_WAIT after a restart is free for them, so it must pass here too.
                let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .bind(host: address.host, port: address.port).get()
                try await channel.close()
            } catch {
                throw Failure(host: address.host, port: address.port, flag: address.flag, reason: reason(error))
            }
        }
    }

    /// "address already in use" for a socket error, the error's own text otherwise.
    static func reason(_ error: any Error) -> String {
        guard let io = error as? IOError else { return "\(error)" }
        return String(cString: strerror(io.errnoCode)).lowercased()
    }
}

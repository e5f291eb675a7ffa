import NIOCore

/// Sits in front of TLS so a close started from its context skips the TLS close_notify: the
/// `resetConnection` fault drops the TCP connection the way a crashed server does.
final class RawCloseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = Never
}

import NIOCore

/// Which addresses a webhook POST may connect to. A webhook URL is configuration, but what its host
/// resolves to (and where a receiver would redirect, were redirects followed) is not under the
/// operator's control: without this rule the server could be made to POST to its own database port,
/// a neighbour on the private network or a cloud metadata service. So loopback, private, link-local,
/// unspecified, CGNAT, multicast, reserved and metadata addresses are refused unless
/// `--webhook-allow-private-targets` allows them (development against a local receiver).
enum WebhookTargetPolicy {
    /// Why `address` may not be a webhook target (the range's name), or nil when it may.
    static func refusal(for address: SocketAddress) -> String? {
        switch address {
        case .v4(let v4):
            return refusal(v4: withUnsafeBytes(of: v4.address.sin_addr) { Array($0) })
        case .v6(let v6):
            return refusal(v6: withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) })
        case .unixDomainSocket:
            return "a Unix domain socket"
        }
    }

    /// Why a host given as a literal address (`127.0.0.1`, `[::1]`) or as `localhost` may not be a
    /// webhook target, or nil: a name is checked when it is resolved, at each POST.
    static func literalRefusal(host: String) -> String? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let lowered = bare.lowercased()
        // RFC 6761: localhost and its subdomains are loopback by definition, whatever a resolver says.
        if lowered == "localhost" || lowered.hasSuffix(".localhost") || lowered == "localhost." { return "loopback (localhost)" }
        guard let address = try? SocketAddress(ipAddress: bare, port: 0) else { return nil }
        return refusal(for: address)
    }

    /// A range of addresses: the first `length` bits of `prefix`.
    private struct Range {
        var prefix: [UInt8]
        var length: Int
        var name: String

        func contains(_ bytes: [UInt8]) -> Bool {
            guard bytes.count == prefix.count else { return false }
            var bits = length
            for (byte, wanted) in zip(bytes, prefix) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if byte & mask != wanted & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    private static let v4Ranges: [Range] = [
        Range(prefix: [0, 0, 0, 0], length: 8, name: "unspecified (0.0.0.0/8)"),
        Range(prefix: [10, 0, 0, 0], length: 8, name: "private (10.0.0.0/8)"),
        // Also Alibaba Cloud's metadata service, 100.100.100.200.
        Range(prefix: [100, 64, 0, 0], length: 10, name: "shared/CGNAT (100.64.0.0/10)"),
        Range(prefix: [127, 0, 0, 0], length: 8, name: "loopback (127.0.0.0/8)"),
        // Also the metadata service of AWS, GCP and Azure, 169.254.169.254.
        Range(prefix: [169, 254, 0, 0], length: 16, name: "link-local and metadata (169.254.0.0/16)"),
        Range(prefix: [172, 16, 0, 0], length: 12, name: "private (172.16.0.0/12)"),
        // IETF protocol assignments; Oracle Cloud's metadata service is 192.0.0.192.
        Range(prefix: [192, 0, 0, 0], length: 24, name: "special-purpose and metadata (192.0.0.0/24)"),
        Range(prefix: [192, 168, 0, 0], length: 16, name: "private (192.168.0.0/16)"),
        Range(prefix: [198, 18, 0, 0], length: 15, name: "benchmarking (198.18.0.0/15)"),
        Range(prefix: [224, 0, 0, 0], length: 4, name: "multicast (224.0.0.0/4)"),
        Range(prefix: [240, 0, 0, 0], length: 4, name: "reserved and broadcast (240.0.0.0/4)"),
    ]

    private static let v6Ranges: [Range] = [
        Range(prefix: [UInt8](repeating: 0, count: 16), length: 128, name: "unspecified (::)"),
        Range(prefix: [UInt8](repeating: 0, count: 15) + [1], length: 128, name: "loopback (::1)"),
        // Also AWS's IPv6 metadata service, fd00:ec2::254.
        Range(prefix: [0xFC] + [UInt8](repeating: 0, count: 15), length: 7, name: "unique local (fc00::/7)"),
        Range(prefix: [0xFE, 0x80] + [UInt8](repeating: 0, count: 14), length: 10, name: "link-local (fe80::/10)"),
        Range(prefix: [0xFE, 0xC0] + [UInt8](repeating: 0, count: 14), length: 10, name: "site-local (fec0::/10)"),
        Range(prefix: [0xFF] + [UInt8](repeating: 0, count: 15), length: 8, name: "multicast (ff00::/8)"),
    ]

    private static func refusal(v4 bytes: [UInt8]) -> String? {
        v4Ranges.first { $0.contains(bytes) }?.name
    }

    private static func refusal(v6 bytes: [UInt8]) -> String? {
        if let range = v6Ranges.first(where: { $0.contains(bytes) }) { return range.name }
        // Addresses that carry an IPv4 address reach that address: judge it.
        let mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
        let nat64: [UInt8] = [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8)
        let compatible = [UInt8](repeating: 0, count: 12)
        for prefix in [mapped, nat64, compatible] where Array(bytes.prefix(12)) == prefix {
            return refusal(v4: Array(bytes.suffix(4))).map { "\($0), as an IPv4-embedding IPv6 address" }
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {  // 6to4, 2002:AABB:CCDD::/48
            return refusal(v4: Array(bytes[2..<6])).map { "\($0), as a 6to4 address" }
        }
        return nil
    }
}

/// The one rule for "this machine only", shared by `skiff-server serve` and the app's `--server`: plaintext HTTP
/// and the demo account are allowed only where nothing leaves the host.
public enum LoopbackAddress {
    /// True for `localhost`, 127.0.0.0/8, `::1` and `::ffff:127.x.y.z`, with or without IPv6 brackets.
    /// Anything it does not recognise (other names, shorthand such as `127.1`) counts as not loopback.
    public static func isLoopback(host: String) -> Bool {
        var host = host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.lowercased() == "localhost" { return true }
        if let ipv4 = ipv4Octets(host) { return ipv4[0] == 127 }
        guard let ipv6 = ipv6Bytes(host) else { return false }
        let unspecifiedPrefix = ipv6[0..<10].allSatisfy { $0 == 0 }
        if unspecifiedPrefix, ipv6[10..<15].allSatisfy({ $0 == 0 }), ipv6[15] == 1 { return true }
        return unspecifiedPrefix && ipv6[10] == 0xff && ipv6[11] == 0xff && ipv6[12] == 127
    }

    /// The four octets of a dotted-quad IPv4 address, or nil.
    static func ipv4Octets(_ text: some StringProtocol) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                  let octet = UInt8(part) else { return nil }
            octets.append(octet)
        }
        return octets
    }

    /// The sixteen bytes of an IPv6 address (`::` shorthand and a dotted-quad tail allowed, a `%zone` ignored), or nil.
    static func ipv6Bytes(_ text: String) -> [UInt8]? {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard address.contains(":") else { return nil }
        let halves = address.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func groups(_ half: Substring) -> [UInt8]? {
            if half.isEmpty { return [] }
            var bytes: [UInt8] = []
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let ipv4 = ipv4Octets(piece) {
                    bytes += ipv4
                } else if (1...4).contains(piece.count), let group = UInt16(piece, radix: 16) {
                    bytes += [UInt8(group >> 8), UInt8(group & 0xff)]
                } else {
                    return nil
                }
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 16 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}

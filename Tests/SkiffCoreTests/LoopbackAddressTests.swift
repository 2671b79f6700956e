import Testing
@testable import SkiffCore

@Suite("LoopbackAddress")
struct LoopbackAddressTests {
    @Test("this machine: localhost, 127.0.0.0/8, ::1 in any spelling", arguments: [
        "localhost", "LOCALHOST", "127.0.0.1", "127.255.0.9", "::1", "[::1]", "0:0:0:0:0:0:0:1", "0::1",
        "::ffff:127.0.0.1", "::1%lo",
    ])
    func loopback(host: String) {
        #expect(LoopbackAddress.isLoopback(host: host))
    }

    @Test("anywhere else, or anything unrecognised", arguments: [
        "0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "128.0.0.1", "example.com", "localhost.example.com",
        "127.0.0.1.example.com", "127.1", "::2", "1::1", "::ffff:10.0.0.1", "", "[::1", "127.0.0.256", ":::1",
    ])
    func notLoopback(host: String) {
        #expect(!LoopbackAddress.isLoopback(host: host))
    }
}

import Foundation
import Testing
@testable import Skiff

@Suite("ServerAddress: what --server accepts")
struct ServerAddressTests {
    @Test("https anywhere, plain http on this machine only", arguments: [
        "https://wallet.example.com", "https://10.0.0.5:8443", "http://127.0.0.1:8080", "http://localhost:8080",
        "http://[::1]:8080", "HTTP://127.0.0.2",
    ])
    func accepted(text: String) throws {
        #expect(try ServerAddress(parsing: text).url == URL(string: text))
    }

    @Test("A trailing / is dropped, so no request path starts with //", arguments: [
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"), ("https://wallet.example.com/api//", "https://wallet.example.com/api"),
    ])
    func trailingSlashDropped(text: String, url: String) throws {
        #expect(try ServerAddress(parsing: text).url.absoluteString == url)
    }

    @Test("plain http off this machine is refused, saying to use https:// and --ca-file", arguments: [
        "http://wallet.example.com", "http://10.0.0.5:8080", "http://0.0.0.0:8080", "http://[fe80::1]:8080",
    ])
    func plaintextRefused(text: String) {
        let refusal = #expect(throws: ServerAddress.Refusal.self) { try ServerAddress(parsing: text) }
        #expect(refusal?.description.contains("is not on this machine") == true)
        #expect(refusal?.description.contains("Use https:// (with --ca-file") == true)
    }

    @Test("anything that is not an http(s) address with a host is refused", arguments: [
        "127.0.0.1:8080", "ftp://127.0.0.1", "https://", "not a url",
    ])
    func malformedRefused(text: String) {
        let refusal = #expect(throws: ServerAddress.Refusal.self) { try ServerAddress(parsing: text) }
        #expect(refusal?.description.hasPrefix("--server needs an http:// or https:// address") == true)
    }

    @Test("user information never reaches a description or a refusal")
    func withoutUserInformation() throws {
        let address = try ServerAddress(parsing: "https://alex:hunter2@wallet.example.com:8443/api")
        #expect(address.description == "https://wallet.example.com:8443/api")
        #expect(address.url.password == "hunter2")

        let refusal = #expect(throws: ServerAddress.Refusal.self) {
            try ServerAddress(parsing: "http://alex:hunter2@wallet.example.com:8080")
        }
        #expect(refusal?.description.contains("http://wallet.example.com:8080") == true)
        #expect(refusal?.description.contains("hunter2") == false)
        #expect(refusal?.description.contains("alex") == false)
    }
}

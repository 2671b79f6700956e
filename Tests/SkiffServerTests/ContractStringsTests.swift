import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffAPI
import Testing
@testable import SkiffServer

/// A value outside the contract's length or pattern for a request's string field breaks the schema: 400, naming
/// the field, before any rule in words (422) is asked.
@Suite("The contract's string facets")
struct ContractStringsTests {
    @Test("Lengths are counted in Unicode scalars, at both ends; a pattern must match the whole value")
    func problem() {
        #expect(ContractStrings.problem("", field: "recipientId", in: "TransferRequest") == "This field cannot be empty.")
        #expect(ContractStrings.problem(String(repeating: "a", count: 64), field: "recipientId", in: "TransferRequest") == nil)
        #expect(ContractStrings.problem(String(repeating: "a", count: 65), field: "recipientId", in: "TransferRequest")
            == "This field takes at most 64 characters.")
        #expect(ContractStrings.problem(String(repeating: "é", count: 1000), field: "note", in: "TransferRequest") == nil)
        #expect(ContractStrings.problem(String(repeating: "é", count: 1001), field: "note", in: "TransferRequest") != nil)
        // One character as a person counts it, three scalars: JSON Schema counts the scalars.
        let family = "\u{1F468}\u{200D}\u{1F467}"
        #expect(ContractStrings.problem(String(repeating: family, count: 334), field: "note", in: "TransferRequest") != nil)
        #expect(ContractStrings.problem("USD", field: "currency", in: "TransferRequest") == nil)
        for bad in ["usd", "US", "USDD", "USD\n", "\nUSD", " USD"] {
            #expect(ContractStrings.problem(bad, field: "currency", in: "TransferRequest")
                == "This field is not in the expected form, such as USD.", "\(bad.debugDescription)")
        }
        #expect(ContractStrings.problem("", field: "displayName", in: "Recipient") == nil)
        #expect(ContractStrings.problem("", field: "anything", in: "NoSuchSchema") == nil)
    }

    /// Each field of a request body that the contract gives a length or a pattern, with values that break them.
    static let breaks: [(schema: String, path: String, body: [String: any Sendable], field: String, values: [String])] = [
        ("TransferRequest", "/v1/transfers", ["recipientId": "someone", "amountMinor": 100, "currency": "USD"],
         "recipientId", ["", String(repeating: "r", count: 65)]),
        ("TransferRequest", "/v1/transfers", ["recipientId": "someone", "amountMinor": 100, "currency": "USD"],
         "currency", ["usd", "USD\n"]),
        ("TransferRequest", "/v1/transfers", ["recipientId": "someone", "amountMinor": 100, "currency": "USD"],
         "note", [String(repeating: "n", count: 1001)]),
        ("TransferRequest", "/v1/transfers", ["recipientId": "someone", "amountMinor": 100, "currency": "USD"],
         "stepUpToken", [String(repeating: "t", count: 201)]),
        ("TopUpRequest", "/v1/topups", ["cardId": "card", "amountMinor": 100, "currency": "USD"],
         "cardId", ["", String(repeating: "c", count: 65)]),
        ("TopUpRequest", "/v1/topups", ["cardId": "card", "amountMinor": 100, "currency": "USD"],
         "currency", ["usd"]),
    ]

    @Test("A transfer's and a top-up's fields outside the contract answer 400 naming them, write nothing, and leave the key free")
    func routes() async throws {
        for schema in Set(Self.breaks.map(\.schema)) {
            let covered = Set(Self.breaks.filter { $0.schema == schema }.map(\.field))
            #expect(Set(SkiffContract.stringFacets[schema, default: [:]].keys) == covered, "\(schema): a facet with no test here")
        }
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            var count = 0
            for entry in Self.breaks {
                for value in entry.values {
                    count += 1
                    var body = entry.body
                    body[entry.field] = value
                    let reply = try await client.send(.post, entry.path, json: body, token: user.token, idempotencyKey: "facet-\(count)")
                    #expect(reply.status == .badRequest && reply.errorFields == [entry.field], "\(entry.field) \(value.prefix(8).debugDescription): \(reply.body)")
                    #expect(reply.problemType == "urn:skiff:problem:validation", "\(reply.body)")
                }
            }
            // Two fields broken at once are both named, with a rule in words (the amount's) beside them.
            let both = try await client.send(
                .post, "/v1/transfers", json: ["recipientId": "", "amountMinor": 0, "currency": "usd"], token: user.token,
                idempotencyKey: "facet-1"
            )
            #expect(both.status == .badRequest && both.errorFields == ["recipientId", "amountMinor", "currency"], "\(both.body)")
            let me = try await client.send(.get, "/v1/me", token: user.token)
            #expect((me.json["balance"] as? [String: Any])?["amountMinor"] as? Int == 100_000)
            // A refused key is free: the corrected top-up is refused for its card, not replayed as the first answer.
            let corrected = try await client.send(
                .post, "/v1/topups", json: ["cardId": "card", "amountMinor": 100, "currency": "USD"], token: user.token,
                idempotencyKey: "facet-\(count)"
            )
            #expect(corrected.status == .unprocessableContent && corrected.errorFields == ["cardId"], "\(corrected.body)")
        }
    }
}

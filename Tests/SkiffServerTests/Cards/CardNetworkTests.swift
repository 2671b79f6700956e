import Foundation
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Simulated card network")
struct CardNetworkTests {
    let network = SimulatedCardNetwork(latency: .zero)

    private func request(last4: String = "4242", amount: Int64 = 5_000, verified: Bool = false, key: String = "k") -> CardAuthorizationRequest {
        CardAuthorizationRequest(
            cardID: "card", brand: "visa", last4: last4, amountMinor: amount, currency: "USD", cardholderVerified: verified,
            idempotencyKey: key
        )
    }

    @Test("Stripe's test cards decline by their last four digits, whatever the amount or the code", arguments: [
        ("0002", CardDeclineReason.generic), ("9995", .insufficientFunds), ("0069", .expiredCard),
    ])
    func declines(last4: String, reason: CardDeclineReason) async throws {
        #expect(try await network.authorize(request(last4: last4)) == .declined(reason))
        #expect(try await network.authorize(request(last4: last4, amount: 50_000, verified: true)) == .declined(reason))
    }

    @Test("…0119 never answers: the adapter throws timedOut")
    func timesOut() async throws {
        await #expect(throws: CardNetworkError.timedOut) { try await network.authorize(request(last4: "0119")) }
    }

    @Test("Above the challenge amount the issuer asks for the code until the cardholder gave it; at it, it approves")
    func challenge() async throws {
        let limit = TransferRules.topUpChallengeAboveMinor
        #expect(try await network.authorize(request(amount: limit + 1)) == .challenge)
        guard case .approved = try await network.authorize(request(amount: limit + 1, verified: true)) else {
            Issue.record("not approved after the code"); return
        }
        guard case .approved = try await network.authorize(request(amount: limit)) else {
            Issue.record("not approved at the limit"); return
        }
    }

    @Test("The same idempotency key gets the same authorization; another key another")
    func sameKeySameAuthorization() async throws {
        let first = try await network.authorize(request(key: "a"))
        #expect(try await network.authorize(request(key: "a")) == first)
        #expect(try await network.authorize(request(key: "b")) != first)
    }

    @Test("Its latency is spent before it answers")
    func latency() async throws {
        let slow = SimulatedCardNetwork(latency: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await slow.authorize(request())
        #expect(clock.now - start >= .milliseconds(50))
    }
}

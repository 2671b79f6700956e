import SkiffAPI
import Testing
@testable import Skiff

@Suite("Network error mapping")
struct NetworkErrorMappingTests {
    func problem(_ type: String, status: Int) -> Components.Schemas.Problem {
        Components.Schemas.Problem(_type: type, title: "t", status: status, detail: "d")
    }

    @Test("a 409 whose type is the server's idempotency-in-progress (from ProblemType) is still running; another 409 is a conflict")
    func stillRunning() {
        let running = problem(ProblemType.idempotencyInProgress.uri(status: 409), status: 409)
        #expect(NetworkErrorMapping.problem(status: 409, problem: running, retryAfter: nil) == .stillRunning)
        let duplicate = problem(ProblemType.duplicateCard.uri(status: 409), status: 409)
        #expect(NetworkErrorMapping.problem(status: 409, problem: duplicate, retryAfter: nil) == .conflict(detail: "d"))
        // A frozen card refuses the activation in words; it must never read as "active already".
        let frozen = problem(ProblemType.cardFrozen.uri(status: 409), status: 409)
        #expect(NetworkErrorMapping.problem(status: 409, problem: frozen, retryAfter: nil) == .validation(detail: "d", fields: []))
        let foreign = problem("urn:other:idempotency-in-progress", status: 409)
        #expect(NetworkErrorMapping.problem(status: 409, problem: foreign, retryAfter: nil) == .conflict(detail: "d"))
    }

    @Test("a 503 whose type is card-network-unavailable did nothing, in the server's words; another 503 is the server's failure")
    func cardNetworkUnavailable() {
        let unavailable = problem(ProblemType.cardNetworkUnavailable.uri(status: 503), status: 503)
        #expect(NetworkErrorMapping.problem(status: 503, problem: unavailable, retryAfter: nil) == .unavailable(detail: "d"))
        #expect(NetworkErrorMapping.problem(status: 503, problem: problem("urn:other", status: 503), retryAfter: nil)
            == .server(status: 503, detail: "d"))
    }

    @Test("a worker's names put the server's refused fields under the app's names; other names and other errors pass as they are")
    func naming() {
        let refusal = NetworkError.validation(detail: "d", fields: [
            FieldError(field: "amountMinor", message: "Too much."), FieldError(field: "note", message: "Too long."),
        ])
        #expect(refusal.naming(TransferWorker.transferFields) == .validation(detail: "d", fields: [
            FieldError(field: "amount", message: "Too much."), FieldError(field: "note", message: "Too long."),
        ]))
        // What the server says of a card's token is said of the number the person typed (issue 45).
        #expect(NetworkError.validation(detail: "d", fields: [FieldError(field: "cardToken", message: "m")]).naming(CardWorker.newCardFields)
            == .validation(detail: "d", fields: [FieldError(field: "number", message: "m")]))
        #expect(NetworkError.timeout.naming(TransferWorker.transferFields) == .timeout)
    }
}

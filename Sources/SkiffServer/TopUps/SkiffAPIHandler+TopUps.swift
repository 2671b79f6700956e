import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func createTopUp(_ input: Operations.CreateTopUp.Input) async throws -> Operations.CreateTopUp.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let (topUp, replayed) = try await topUps.create(
            .init(cardID: body.cardId, amountMinor: body.amountMinor, currency: body.currency),
            userID: caller.userID, idempotencyKey: try IdempotencyKey.required()
        )
        let location = "/v1/topups/\(topUp.id)"
        if topUp.status == .pending {
            return .accepted(.init(
                headers: .init(location: location, idempotentReplayed: replayed ? ._true : nil), body: .json(topUp.api)
            ))
        }
        return .created(.init(
            headers: .init(location: location, idempotentReplayed: replayed ? ._true : nil), body: .json(topUp.api)
        ))
    }

    func getTopUp(_ input: Operations.GetTopUp.Input) async throws -> Operations.GetTopUp.Output {
        let caller = try Caller.required()
        return .ok(.init(body: .json(try await topUps.topUp(id: input.path.id, userID: caller.userID).api)))
    }
}

extension TopUpRecord {
    var api: Components.Schemas.TopUp {
        let apiStatus: Components.Schemas.TopUpStatus = switch status {
        case .pending: .pending
        case .completed: .completed
        case .declined: .declined
        }
        return .init(
            id: id, status: apiStatus, amountMinor: amountMinor, currency: currency, cardId: cardID,
            cardName: TopUpService.cardName(brand: cardBrand, last4: cardLast4), transferId: transferID,
            reference: reference, declineReason: declineReason, actionUrl: status == .pending ? actionURL : nil,
            createdAt: createdAt, completedAt: completedAt
        )
    }
}

import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func listCards(_ input: Operations.ListCards.Input) async throws -> Operations.ListCards.Output {
        let caller = try Caller.required()
        return .ok(.init(body: .json(try await cardService.cards(userID: caller.userID).map(\.api))))
    }

    func addCard(_ input: Operations.AddCard.Input) async throws -> Operations.AddCard.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let card = try await cardService.add(
            .init(cardToken: body.cardToken, holderName: body.holderName), userID: caller.userID,
            idempotencyKey: try IdempotencyKey.required().value
        )
        return .created(.init(headers: .init(location: "/v1/cards/\(card.id)"), body: .json(card.api)))
    }

    func getCardNetwork(_ input: Operations.GetCardNetwork.Input) async throws -> Operations.GetCardNetwork.Output {
        _ = try Caller.required()
        let tokenization = cardService.network.tokenization
        return .ok(.init(body: .json(.init(
            network: tokenization.network == .stripe ? .stripe : .simulated, publishableKey: tokenization.publishableKey,
            apiUrl: tokenization.apiURL
        ))))
    }

    func deleteCard(_ input: Operations.DeleteCard.Input) async throws -> Operations.DeleteCard.Output {
        let caller = try Caller.required()
        try await cardService.delete(id: input.path.id, userID: caller.userID)
        return .noContent(.init())
    }

    func freezeCard(_ input: Operations.FreezeCard.Input) async throws -> Operations.FreezeCard.Output {
        let caller = try Caller.required()
        return .ok(.init(body: .json(try await cardService.setFrozen(true, cardID: input.path.id, userID: caller.userID).api)))
    }

    func unfreezeCard(_ input: Operations.UnfreezeCard.Input) async throws -> Operations.UnfreezeCard.Output {
        let caller = try Caller.required()
        return .ok(.init(body: .json(try await cardService.setFrozen(false, cardID: input.path.id, userID: caller.userID).api)))
    }

    func startCardActivation(_ input: Operations.StartCardActivation.Input) async throws -> Operations.StartCardActivation.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let challenge = try await cardService.startActivation(
            cardID: input.path.id, userID: caller.userID, last4: body.last4, clientAddress: ClientAddress.current
        )
        return .accepted(.init(body: .json(challenge.api)))
    }

    func activateCard(_ input: Operations.ActivateCard.Input) async throws -> Operations.ActivateCard.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let card = try await cardService.activate(
            cardID: input.path.id, userID: caller.userID, last4: body.last4, verificationID: body.verificationId, code: body.code
        )
        return .ok(.init(body: .json(card.api)))
    }
}

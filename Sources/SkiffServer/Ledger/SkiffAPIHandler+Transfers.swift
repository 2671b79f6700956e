import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func findRecipient(_ input: Operations.FindRecipient.Input) async throws -> Operations.FindRecipient.Output {
        let caller = try Caller.required()
        let recipient = try await transfers.findRecipient(
            callerID: caller.userID, countryCode: input.query.countryCode, phoneNumber: input.query.phoneNumber
        )
        return .ok(.init(body: .json(.init(
            recipientId: recipient.id, displayName: recipient.displayName, fullName: recipient.fullName
        ))))
    }

    func sendTransfer(_ input: Operations.SendTransfer.Input) async throws -> Operations.SendTransfer.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let sent = try await transfers.send(
            .init(
                recipientID: body.recipientId, amountMinor: body.amountMinor, currency: body.currency, note: body.note,
                stepUpToken: body.stepUpToken
            ),
            callerID: caller.userID, sessionTokenHash: caller.tokenHash, idempotencyKey: try IdempotencyKey.required()
        )
        return .created(.init(
            headers: .init(location: "/v1/transfers/\(sent.transfer.id)", idempotentReplayed: sent.replayed ? ._true : nil),
            body: .json(Self.api(sent.transfer, for: caller.userID, counterparty: sent.recipient))
        ))
    }

    func getTransfer(_ input: Operations.GetTransfer.Input) async throws -> Operations.GetTransfer.Output {
        let caller = try Caller.required()
        let seen = try await transfers.transfer(id: input.path.id, userID: caller.userID)
        return .ok(.init(body: .json(Self.api(seen.transfer, for: caller.userID, counterparty: seen.counterparty))))
    }

    func stepUp(_ input: Operations.StepUp.Input) async throws -> Operations.StepUp.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let proof = try await auth.stepUp(
            userID: caller.userID, tokenHash: caller.tokenHash, password: body.password,
            for: .init(payeeUserID: body.recipientId, amountMinor: body.amountMinor)
        )
        return .created(.init(body: .json(.init(stepUpToken: proof.token, expiresAt: proof.expiresAt))))
    }

    /// The transfer as `userID` sees it: sent or received, with the other party.
    private static func api(
        _ transfer: TransferRecord, for userID: String, counterparty: TransferService.Recipient
    ) -> Components.Schemas.Transfer {
        .init(
            id: transfer.id, reference: transfer.reference, direction: transfer.payerUserID == userID ? .sent : .received,
            amountMinor: transfer.amountMinor, currency: transfer.currency, note: transfer.note,
            counterparty: .init(recipientId: counterparty.id, displayName: counterparty.displayName),
            createdAt: transfer.createdAt
        )
    }
}

import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let challenge = try await auth.register(
            countryCode: body.countryCode, phoneNumber: body.phoneNumber, fullName: body.fullName, password: body.password,
            clientAddress: ClientAddress.current
        )
        return .accepted(.init(body: .json(challenge.api)))
    }

    func verifyRegistration(_ input: Operations.VerifyRegistration.Input) async throws -> Operations.VerifyRegistration.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let signedIn = try await auth.verifyRegistration(
            verificationID: body.verificationId, code: body.code, idempotencyKey: IdempotencyKey.current
        )
        return .created(.init(body: .json(signedIn.api)))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let signedIn = try await auth.login(countryCode: body.countryCode, phoneNumber: body.phoneNumber, password: body.password)
        return .ok(.init(body: .json(signedIn.api)))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        if let caller = Caller.current {
            try await auth.logout(tokenHash: caller.tokenHash)
        }
        return .noContent(.init())
    }

    func unlockSession(_ input: Operations.UnlockSession.Input) async throws -> Operations.UnlockSession.Output {
        let caller = try Caller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        try await auth.unlock(userID: caller.userID, tokenHash: caller.tokenHash, password: body.password)
        return .noContent(.init())
    }

    func lockSession(_ input: Operations.LockSession.Input) async throws -> Operations.LockSession.Output {
        try await auth.lock(tokenHash: try Caller.required().tokenHash)
        return .noContent(.init())
    }

    func forgotPassword(_ input: Operations.ForgotPassword.Input) async throws -> Operations.ForgotPassword.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        let challenge = try await auth.forgotPassword(
            countryCode: body.countryCode, phoneNumber: body.phoneNumber, clientAddress: ClientAddress.current
        )
        return .accepted(.init(body: .json(challenge.api)))
    }

    func resetPassword(_ input: Operations.ResetPassword.Input) async throws -> Operations.ResetPassword.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send JSON.") }
        try await auth.resetPassword(
            verificationID: body.verificationId, code: body.code, newPassword: body.newPassword,
            idempotencyKey: IdempotencyKey.current
        )
        return .noContent(.init())
    }
}

import SkiffAPI

/// A generated operation's answer: its documented successes, or `default`, a problem document.
protocol ProblemAnswering {
    /// The problem document of a `default` answer; throws for any other (the generator writes this accessor).
    var `default`: Components.Responses.Problem { get throws }
}

extension APIClient {
    /// Calls one operation of the generated client and returns what `success` reads from its answer. A failed
    /// call, a problem answer and an unreadable body all come out as a `NetworkError`.
    func send<Output: ProblemAnswering, Value>(
        _ operation: (Client) async throws -> Output,
        success: (Output) throws -> Value
    ) async throws(NetworkError) -> Value {
        let client = client
        let output = try await NetworkErrorMapping.call { try await operation(client) }
        if let problem = try? output.default { throw problem.networkError }
        return try await NetworkErrorMapping.call { try success(output) }
    }
}

extension Operations.Login.Output: ProblemAnswering {}
extension Operations.Register.Output: ProblemAnswering {}
extension Operations.VerifyRegistration.Output: ProblemAnswering {}
extension Operations.ForgotPassword.Output: ProblemAnswering {}
extension Operations.ResetPassword.Output: ProblemAnswering {}
extension Operations.Logout.Output: ProblemAnswering {}
extension Operations.LockSession.Output: ProblemAnswering {}
extension Operations.UnlockSession.Output: ProblemAnswering {}
extension Operations.GetMe.Output: ProblemAnswering {}
extension Operations.ListTransactions.Output: ProblemAnswering {}
extension Operations.ListCards.Output: ProblemAnswering {}
extension Operations.AddCard.Output: ProblemAnswering {}
extension Operations.StartCardActivation.Output: ProblemAnswering {}
extension Operations.ActivateCard.Output: ProblemAnswering {}
extension Operations.ListNotifications.Output: ProblemAnswering {}
extension Operations.MarkNotificationRead.Output: ProblemAnswering {}
extension Operations.DeleteCard.Output: ProblemAnswering {}
extension Operations.FreezeCard.Output: ProblemAnswering {}
extension Operations.UnfreezeCard.Output: ProblemAnswering {}
extension Operations.GetSpending.Output: ProblemAnswering {}
extension Operations.FindRecipient.Output: ProblemAnswering {}
extension Operations.StepUp.Output: ProblemAnswering {}
extension Operations.SendTransfer.Output: ProblemAnswering {}
extension Operations.CreateTopUp.Output: ProblemAnswering {}
extension Operations.ConfirmTopUp.Output: ProblemAnswering {}

import SkiffCore
import Testing
@testable import Skiff

/// The worker doubles' presets, and the default that fails a test calling what it did not set up.
@Suite("Worker doubles")
struct WorkerDoublesTests {
    @Test("a double made bare fails the test on a call it was not set up for, naming the method")
    func unsetFailsLoudly() async {
        let auth = AuthWorkerDouble()
        await withKnownIssue {
            _ = try? await auth.login(phone: Seeds.phone, password: "x")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("AuthWorkerDouble.login(phone:password:) was called, but the test did not set it up") }
        }
        let cards = CardWorkerDouble()
        await withKnownIssue {
            _ = try? await cards.cards()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("CardWorkerDouble.cards()") }
        }
    }

    @Test("a call the test set up answers without an issue")
    func setUpAnswers() async throws {
        let auth = AuthWorkerDouble()
        auth.loginResult.set(.success(Seeds.session))
        #expect(try await auth.login(phone: Seeds.phone, password: "x") == Seeds.session)
    }

    @Test(".succeeding answers every call as the seeded account")
    func succeeding() async throws {
        let account = AccountWorkerDouble.succeeding
        #expect(try await account.summary() == Seeds.summary)
        #expect(try await account.transactions(limit: 10, cursor: nil, query: nil).items.isEmpty)
        #expect(try await CardWorkerDouble.succeeding.cards() == [Seeds.issuedCard])
        #expect(try await NotificationsWorkerDouble.succeeding.notifications().isEmpty)
    }

    @Test(".failing, .failing(with:) and .offline fail every call with their error")
    func failing() async {
        await #expect(throws: NetworkError.server(status: 500, detail: "Internal Server Error")) {
            try await AuthWorkerDouble.failing.logout()
        }
        await #expect(throws: NetworkError.unreachable) { try await AccountWorkerDouble.offline.spending() }
        await #expect(throws: NetworkError.unreachable) { try await CardWorkerDouble.offline.remove(cardID: "c_1") }
        await #expect(throws: NetworkError.timeout) {
            try await NotificationsWorkerDouble.failing(with: .timeout).markRead(id: "n_1")
        }
    }

    @Test(".slow holds a call until the test opens its gate, then succeeds")
    func slow() async throws {
        let auth = AuthWorkerDouble.slow
        let login = Task { try await auth.login(phone: Seeds.phone, password: "x") }
        while auth.gate?.held != 1 { await Task.yield() }
        auth.gate?.open()
        #expect(try await login.value == Seeds.session)
    }
}

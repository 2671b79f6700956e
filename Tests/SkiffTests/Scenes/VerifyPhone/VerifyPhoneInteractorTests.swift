import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("VerifyPhoneInteractor", .timeLimit(.minutes(3)))
struct VerifyPhoneInteractorTests {
    let presenter = VerifyPhonePresentationLogicSpy()
    let auth = AuthWorkerDouble.succeeding
    let sessions = SessionStoreDouble()
    let outbox = OutboxDouble(code: "123456")
    let tasks = TaskTracker()
    let registration = Registration(phone: Seeds.phone, fullName: "Alex Rivera", password: "sail-away-2026")

    func makeSUT(outbox: OutboxDouble? = nil) -> VerifyPhoneInteractor {
        VerifyPhoneInteractor(
            presenter: presenter, auth: auth, sessions: sessions, codes: DevelopmentCodes(outbox: outbox, clock: .immediate()),
            registration: registration, challenge: Seeds.challenge, tasks: tasks, makeKey: { "resend-key" }
        )
    }

    @Test("load shows where the code went and, in development, the code itself")
    func load() {
        makeSUT(outbox: outbox).load(request: .init())
        #expect(presenter.presentLoadCalls.last?.phone == Seeds.phone)
        #expect(presenter.presentLoadCalls.last?.developmentCode == "123456")
        #expect(outbox.asked.last?.purpose == "registration")
        #expect(outbox.asked.last?.to == "+12025550143")
    }

    @Test("without a development outbox there is no code to show")
    func noOutbox() {
        makeSUT().load(request: .init())
        #expect(presenter.presentLoadCalls.last?.developmentCode == nil)
    }

    @Test("a malformed code is refused before any request")
    func malformed() {
        makeSUT().submit(request: .init(form: .init(code: "12a")))
        guard case .invalid([.code: .code(.malformed)]) = presenter.presentSubmitCalls.last else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(auth.verifications.count == 0)
    }

    @Test("the right code stores the session and routes on")
    func success() async {
        var routes: [VerifyPhoneRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: .init(code: "123456")))
        await tasks.settle()
        #expect(auth.verifications.last?.0 == "v_1")
        #expect(sessions.load() == Seeds.session)
        guard case .verified(Seeds.session) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("the same code sent again carries the same Idempotency-Key; another code a new key")
    func retryKeepsKey() async {
        var made = 0
        let sut = VerifyPhoneInteractor(
            presenter: presenter, auth: auth, sessions: sessions, codes: DevelopmentCodes(outbox: nil, clock: .immediate()),
            registration: registration, challenge: Seeds.challenge, tasks: tasks, makeKey: { made += 1; return "key-\(made)" }
        )
        auth.verifyResult.set(.failure(.timeout))
        for code in ["123456", "123456", "654321"] {
            sut.submit(request: .init(form: .init(code: code)))
            await tasks.settle()
        }
        #expect(auth.verifications.all.map(\.2) == ["key-1", "key-1", "key-2"])
    }

    @Test("a wrong code is reported and nothing is stored")
    func wrongCode() async {
        auth.verifyResult.set(.failure(.validation(detail: "The code is wrong.", fields: [])))
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(code: "000000")))
        await tasks.settle()
        guard case .failed(.validation) = presenter.presentSubmitCalls.last else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(sessions.load() == nil)
    }

    @Test("resend registers again with a fresh key and shows the new code")
    func resend() async {
        let sut = makeSUT(outbox: outbox)
        sut.resend(request: .init())
        await tasks.settle()
        #expect(auth.registrations.last?.1 == "resend-key")
        guard case .succeeded(.resent) = presenter.presentSubmitCalls.last else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(presenter.presentLoadCalls.count == 1)
    }

    @Test("leaving the code field checks the code")
    func validateField() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .code, form: .init(code: "12")))
        sut.validateField(request: .init(field: .code, form: .init(code: "123456")))
        #expect(presenter.presentValidateFieldCalls.map(\.problem) == [.code(.malformed), nil])
    }

    @Test("a code the server refuses by name is put on the code field")
    func refusedOnField() async {
        auth.verifyResult.set(.failure(.validation(detail: "Invalid", fields: [FieldError(field: "code", message: "This code has expired.")])))
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(code: "123456")))
        await tasks.settle()
        guard case .invalid([.code: .server("This code has expired.")]) = presenter.presentSubmitCalls.last else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
    }
}

import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class VerifyPhonePresenterSpy: VerifyPhonePresentationLogic {
    var loads: [VerifyPhone.Load.Response] = []
    var submits: [VerifyPhone.Submit.Response] = []
    func presentLoad(response: VerifyPhone.Load.Response) { loads.append(response) }
    func presentSubmit(response: VerifyPhone.Submit.Response) { submits.append(response) }
}

@MainActor
final class VerifyPhoneDisplaySpy: VerifyPhoneDisplayLogic {
    var loads: [VerifyPhone.Load.ViewModel] = []
    var submits: [VerifyPhone.Submit.ViewModel] = []
    func displayLoad(viewModel: VerifyPhone.Load.ViewModel) { loads.append(viewModel) }
    func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel) { submits.append(viewModel) }
}

@MainActor
@Suite("VerifyPhoneInteractor", .timeLimit(.minutes(1)))
struct VerifyPhoneInteractorTests {
    let presenter = VerifyPhonePresenterSpy()
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
        #expect(presenter.loads.last?.phone == Seeds.phone)
        #expect(presenter.loads.last?.developmentCode == "123456")
        #expect(outbox.asked.last?.purpose == "registration")
        #expect(outbox.asked.last?.to == "+12025550143")
    }

    @Test("without a development outbox there is no code to show")
    func noOutbox() {
        makeSUT().load(request: .init())
        #expect(presenter.loads.last?.developmentCode == nil)
    }

    @Test("a malformed code is refused before any request")
    func malformed() {
        makeSUT().submit(request: .init(code: "12a"))
        guard case .invalid(.code(.malformed)) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(auth.verifications.count == 0)
    }

    @Test("the right code stores the session and routes on")
    func success() async {
        var routes: [VerifyPhoneRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(code: "123456"))
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
            sut.submit(request: .init(code: code))
            await tasks.settle()
        }
        #expect(auth.verifications.all.map(\.2) == ["key-1", "key-1", "key-2"])
    }

    @Test("a wrong code is reported and nothing is stored")
    func wrongCode() async {
        auth.verifyResult.set(.failure(.validation(detail: "The code is wrong.", fields: [])))
        let sut = makeSUT()
        sut.submit(request: .init(code: "000000"))
        await tasks.settle()
        guard case .failed(.validation) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
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
        guard case .resent = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(presenter.loads.count == 1)
    }
}

@MainActor
@Suite("VerifyPhonePresenter")
struct VerifyPhonePresenterTests {
    let display = VerifyPhoneDisplaySpy()
    func makeSUT() -> VerifyPhonePresenter {
        let sut = VerifyPhonePresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("says where the code went and until when it works")
    func load() {
        makeSUT().presentLoad(response: .init(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: "654321"))
        #expect(display.loads.last?.instructions == "We sent a 6-digit code to +1 202 555 0143. It works until 12:10.")
        #expect(display.loads.last?.developmentBanner == BannerMessage(.info, "Development server: the code is 654321"))
    }

    @Test("a refused code is shown on the field and the field is cleared")
    func refused() {
        makeSUT().presentSubmit(response: .failed(.validation(detail: "Wrong code", fields: [])))
        #expect(display.submits.last?.codeError == "Wrong code")
        #expect(display.submits.last?.clearCode == true)
    }

    @Test("a lock-out is a banner with the wait")
    func throttled() {
        makeSUT().presentSubmit(response: .failed(.throttled(retryAfterSeconds: 30)))
        #expect(display.submits.last?.banner == BannerMessage(.error, "Too many attempts. Try again in 0:30."))
    }
}

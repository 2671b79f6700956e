import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("RegisterInteractor", .timeLimit(.minutes(3)))
struct RegisterInteractorTests {
    let presenter = RegisterPresentationLogicSpy()
    let auth = AuthWorkerDouble.succeeding
    let tasks = TaskTracker()
    var keys = 0
    let form = Register.Form(
        countryCode: "+1", phoneNumber: "202 555 0199", fullName: " Sam Lee ", password: "harbour-lights-9", confirmPassword: "harbour-lights-9"
    )

    func makeSUT() -> RegisterInteractor {
        var counter = 0
        return RegisterInteractor(
            presenter: presenter, auth: auth, prefill: LastLogin(countryCode: "+1", phoneNumber: "2025550199"), tasks: tasks
        ) {
            counter += 1
            return "key-\(counter)"
        }
    }

    @Test("load passes on what Login had typed")
    func load() {
        makeSUT().load(request: .init())
        #expect(presenter.presentLoadCalls.first?.prefill == LastLogin(countryCode: "+1", phoneNumber: "2025550199"))
    }

    @Test("every field is checked, including the repeated password")
    func invalid() {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "", fullName: "", password: "short", confirmPassword: "other")))
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .invalid, got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [
            .phoneNumber: .phone(.empty), .fullName: .fullName(.empty),
            .password: .password(.tooShort), .confirmPassword: .passwordsDiffer,
        ])
        #expect(auth.registrations.count == 0)
    }

    @Test("a valid form registers with a trimmed name and routes to verification")
    func success() async {
        var routes: [RegisterRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: form))
        await tasks.settle()
        let (registration, key) = auth.registrations.last!
        #expect(registration.phone.e164 == "+12025550199")
        #expect(registration.fullName == "Sam Lee")
        #expect(key == "key-1")
        guard case .verify(_, let challenge) = routes.last else {
            Issue.record("expected .verify, got \(routes)")
            return
        }
        #expect(challenge == Seeds.challenge)
    }

    @Test("a retry of the same form reuses its Idempotency-Key; a changed form gets a new one")
    func idempotency() async {
        auth.registerResult.set(.failure(.timeout))
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        await tasks.settle()
        sut.submit(request: .init(form: form))
        await tasks.settle()
        var changed = form
        changed.fullName = "Sam J Lee"
        sut.submit(request: .init(form: changed))
        await tasks.settle()
        #expect(auth.registrations.all.map(\.1) == ["key-1", "key-1", "key-2"])
    }

    @Test("Esc leaves the scene when idle and cancels a running request otherwise")
    func cancel() async {
        var routes: [RegisterRoute] = []
        let gate = Gate()
        auth.gate = gate
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: form))
        sut.back(request: .init())
        await tasks.settle()
        #expect(routes.isEmpty)
        sut.back(request: .init())
        guard case .back = routes.last else {
            Issue.record("expected .back, got \(routes)")
            return
        }
    }
}

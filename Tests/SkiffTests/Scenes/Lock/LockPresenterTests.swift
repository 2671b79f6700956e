import Testing
@testable import Skiff

@MainActor
final class LockDisplaySpy: LockDisplayLogic {
    var loadViewModels: [Lock.Load.ViewModel] = []
    var unlockViewModels: [Lock.Unlock.ViewModel] = []
    var logoutViewModels: [Lock.Logout.ViewModel] = []

    func displayLoad(viewModel: Lock.Load.ViewModel) {
        loadViewModels.append(viewModel)
    }

    func displayUnlock(viewModel: Lock.Unlock.ViewModel) {
        unlockViewModels.append(viewModel)
    }

    func displayLogout(viewModel: Lock.Logout.ViewModel) {
        logoutViewModels.append(viewModel)
    }
}

@MainActor
@Suite("Lock presenter")
struct LockPresenterTests {
    let display = LockDisplaySpy()

    func makeSUT() -> LockPresenter {
        let sut = LockPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("load names whose password unlocks, and the keys to unlock and to log out")
    func load() {
        makeSUT().presentLoad(response: .init(userName: "Alex Rivera", reason: .idle))
        let viewModel = display.loadViewModels.last
        #expect(viewModel?.message.text.contains("Alex Rivera's password") == true)
        #expect(viewModel?.message.prompts == [KeyPrompt(.submit, "unlock"), KeyPrompt(.logoutWhileTyping, "log out")])
    }

    @Test("load says why it is locked: no key for a while, locked at the last run, or the server's lock")
    func reasons() {
        let sut = makeSUT()
        for reason in [LockReason.idle, .lockedBefore, .server] {
            sut.presentLoad(response: .init(userName: "Alex Rivera", reason: reason))
        }
        #expect(display.loadViewModels.map { $0.message.text.components(separatedBy: " Enter ").first } == [
            "Skiff locked itself after a while without a key.",
            "Skiff was locked when it last ran.",
            "This session was locked: it went unused for a while, or another Skiff locked it.",
        ])
    }

    @Test("a request refused because the session is locked says so")
    func lockedRefusal() {
        makeSUT().presentUnlock(response: .refused(.locked))
        #expect(display.unlockViewModels.last?.status == "Skiff is locked. Enter your password to go on.")
    }

    @Test("a wrong password is an error that empties the field")
    func wrongPassword() {
        makeSUT().presentUnlock(response: .refused(.validation(detail: "The password is not right.", fields: [])))
        #expect(display.unlockViewModels.last == .init(status: "That password is not right.", isError: true, clearsPassword: true))
    }

    @Test("a throttled unlock says how long to wait")
    func throttled() {
        makeSUT().presentUnlock(response: .refused(.throttled(retryAfterSeconds: 30)))
        #expect(display.unlockViewModels.last?.status == "Too many attempts. Try again in 0:30.")
        #expect(display.unlockViewModels.last?.isError == true)
    }

    @Test("checking and an empty password keep what was typed")
    func startedAndEmpty() {
        let sut = makeSUT()
        sut.presentUnlock(response: .started)
        sut.presentUnlock(response: .empty)
        #expect(display.unlockViewModels == [
            .init(status: "Checking…", isError: false, clearsPassword: false),
            .init(status: "Enter your password.", isError: true, clearsPassword: false),
        ])
    }

    @Test("logout says it is logging out")
    func logout() {
        makeSUT().presentLogout(response: .init())
        #expect(display.logoutViewModels == [.init(status: "Logging out…")])
    }
}

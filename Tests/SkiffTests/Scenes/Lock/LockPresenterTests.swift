import Testing
@testable import Skiff

@MainActor
@Suite("Lock presenter")
struct LockPresenterTests {
    let display = LockDisplayLogicSpy()

    func makeSUT() -> LockPresenter {
        let sut = LockPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("load names whose password unlocks, and the keys to unlock and to log out")
    func load() {
        makeSUT().presentLoad(response: .init(userName: "Alex Rivera", reason: .idle))
        let viewModel = display.displayLoadCalls.last
        #expect(viewModel?.message.text.contains("Alex Rivera's password") == true)
        #expect(viewModel?.message.prompts == [KeyPrompt(.submit, "unlock"), KeyPrompt(.logoutWhileTyping, "log out")])
    }

    @Test("load says why it is locked: no key for a while, locked at the last run, or the server's lock")
    func reasons() {
        let sut = makeSUT()
        for reason in [LockReason.idle, .lockedBefore, .server] {
            sut.presentLoad(response: .init(userName: "Alex Rivera", reason: reason))
        }
        #expect(display.displayLoadCalls.map { $0.message.text.components(separatedBy: " Enter ").first } == [
            "Skiff locked itself after a while without a key.",
            "Skiff was locked when it last ran.",
            "This session was locked: it went unused for a while, or another Skiff locked it.",
        ])
    }

    @Test("a request refused because the session is locked says so")
    func lockedRefusal() {
        makeSUT().presentSubmit(response: .failed(.locked))
        #expect(display.displaySubmitCalls.last?.banner == BannerMessage(.error, "Skiff is locked. Enter your password to go on."))
    }

    @Test("a wrong password is an error that empties the field")
    func wrongPassword() {
        makeSUT().presentSubmit(response: .failed(.validation(detail: "The password is not right.", fields: [])))
        #expect(display.displaySubmitCalls.last == .init(
            fieldErrors: [.password: "That password is not right."], clear: [.password]
        ))
    }

    @Test("a throttled unlock says how long to wait")
    func throttled() {
        makeSUT().presentSubmit(response: .failed(.throttled(retryAfterSeconds: 30)))
        #expect(display.displaySubmitCalls.last?.banner == BannerMessage(.error, "Too many attempts. Try again in 0:30."))
    }

    @Test("checking and an empty password keep what was typed")
    func startedAndEmpty() {
        let sut = makeSUT()
        sut.presentSubmit(response: .started)
        sut.presentSubmit(response: .invalid([.password: .password(.empty)]))
        #expect(display.displaySubmitCalls == [
            .init(isBusy: true),
            .init(fieldErrors: [.password: "Enter your password."]),
        ])
    }

    @Test("leaving the password empty is worded for the person's own password; a filled one clears the error")
    func validateField() {
        let sut = makeSUT()
        sut.presentValidateField(response: .init(field: .password, problem: .password(.empty)))
        sut.presentValidateField(response: .init(field: .password, problem: nil))
        #expect(display.displayValidateFieldCalls == [
            .init(field: .password, message: "Enter your password."), .init(field: .password, message: nil),
        ])
    }

    @Test("a cancelled check says nothing and empties the field")
    func cancelled() {
        makeSUT().presentSubmit(response: .failed(.cancelled))
        #expect(display.displaySubmitCalls.last == .init(fieldErrors: [:], clear: [.password]))
    }

    @Test("logout says it is logging out")
    func logout() {
        makeSUT().presentLogout(response: .init())
        #expect(display.displayLogoutCalls == [.init(banner: BannerMessage(.info, "Logging out…"))])
    }

    @Test("a password the server refuses by name is worded on the field as the server says, and emptied")
    func refusedOnField() {
        makeSUT().presentSubmit(response: .invalid([.password: .server("The password is not right.")]))
        #expect(display.displaySubmitCalls.last == .init(
            fieldErrors: [.password: "The password is not right."], clear: [.password]
        ))
    }
}

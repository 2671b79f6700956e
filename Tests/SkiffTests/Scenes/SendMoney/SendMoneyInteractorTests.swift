import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Send money interactor", .timeLimit(.minutes(3)))
struct SendMoneyInteractorTests {
    let presenter = SendMoneyPresentationLogicSpy()
    let tasks = TaskTracker()
    let transfers = TransferWorkerDouble.succeeding
    let preferences = PreferencesStoreDouble()
    /// $1,234.56.
    let balance = Seeds.summary.balance

    func makeSUT(makeKey: @escaping () -> String = { "key-1" }) -> SendMoneyInteractor {
        SendMoneyInteractor(
            presenter: presenter, transfers: transfers, preferences: preferences, userID: Seeds.session.user.id, balance: balance,
            tasks: tasks, makeKey: makeKey
        )
    }

    /// A fresh key per call: `key-1`, `key-2` …
    func counting() -> () -> String {
        var made = 0
        return { made += 1; return "key-\(made)" }
    }

    let lunch = SendMoney.Form(countryCode: "+1", phoneNumber: "202 555 0111", amount: "12.5", note: " Lunch ")
    let rent = SendMoney.Form(countryCode: "+1", phoneNumber: "202 555 0111", amount: "$1,000", note: "")

    /// Enter on the form, then on the confirmation (with `password`).
    func send(_ sut: SendMoneyInteractor, _ form: SendMoney.Form, password: String = "") async {
        sut.submit(request: .init(form: form))
        await tasks.settle()
        var confirmed = form
        confirmed.password = password
        sut.submit(request: .init(form: confirmed))
        await tasks.settle()
    }

    @Test("the form's own checks: each field's bad value refused in its words, a good form accepted")
    func problems() {
        let sut = makeSUT()
        let bad = SendMoney.Form(countryCode: "", phoneNumber: "12", amount: "12.345", note: String(repeating: "x", count: 141))
        let problems = sut.problems(in: bad)
        #expect(problems[.countryCode] == .phone(.emptyCountryCode))
        #expect(problems[.phoneNumber] == nil, "the number is checked once the country code is known")
        #expect(problems[.amount] == .amount(.tooManyDecimals(allowed: 2)))
        #expect(problems[.note] == .note(.noteTooLong))
        let short = sut.problems(in: .init(phoneNumber: "12", amount: "lots"))
        #expect(Set(short.keys) == [.phoneNumber, .amount])
        #expect(short[.amount] == .amount(.notANumber))
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "0")) == [.amount: .amount(.notPositive)])
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "1234.57")) == [.amount: .amount(.overBalance(balance))])
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "")) == [.amount: .amount(.empty)])
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "1", note: "a\u{7}b")) == [.note: .note(.noteControlCharacters)])
        #expect(sut.problems(in: lunch).isEmpty)
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "$1,234.56")).isEmpty)
    }

    @Test("leaving a field checks that field; an amount that can be sent is written back formatted")
    func validateField() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .amount, form: .init(amount: "1,200")))
        #expect(presenter.presentValidateFieldCalls.last?.problem == nil)
        #expect(presenter.presentFormatAmountCalls.map(\.amount) == [Money(amountMinor: 120_000, currency: "USD")])
        sut.validateField(request: .init(field: .amount, form: .init(amount: "12,50")))
        #expect(presenter.presentValidateFieldCalls.last?.problem == .amount(.notANumber))
        sut.validateField(request: .init(field: .phoneNumber, form: .init(phoneNumber: "1", amount: "5")))
        #expect(presenter.presentValidateFieldCalls.map(\.field) == [.amount, .amount, .phoneNumber])
        #expect(presenter.presentFormatAmountCalls.count == 1, "nothing is rewritten for a refused amount or another field")
    }

    @Test("Enter on the form looks the number up and asks to confirm the recipient, amount and trimmed note")
    func lookUp() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: lunch))
        await tasks.settle()
        #expect(transfers.lookups.all.map(\.e164) == ["+12025550111"])
        #expect(sut.stage == .confirm)
        #expect(presenter.presentSubmitCalls.map(\.stage) == [.form, .confirm], "each answer says the stage it leaves the form at")
        let expected = SendMoney.Confirmation(
            recipient: Seeds.recipient, phone: Seeds.recipientPhone, amount: Money(amountMinor: 1_250, currency: "USD"), note: "Lunch", needsPassword: false
        )
        guard case .succeeded(.confirm(let confirmation)) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(confirmation == expected)
        #expect(transfers.sends.count == 0, "nothing is sent before the person confirms")
    }

    @Test("a stray key is answered on the confirmation only, never while sending, and sends nothing")
    func strayKey() async {
        let sut = makeSUT()
        sut.strayKey(request: .init())
        #expect(presenter.presentStrayKeyCalls.isEmpty, "the form takes its keys itself")
        sut.submit(request: .init(form: lunch))
        await tasks.settle()
        sut.strayKey(request: .init())
        #expect(presenter.presentStrayKeyCalls.map(\.confirmation.amount) == [Money(amountMinor: 1_250, currency: "USD")])
        #expect(transfers.sends.count == 0)
    }

    /// Issue 42, point 11: the limit of one transfer was said only after the password, by the server.
    @Test("an amount over one transfer's limit is refused on the amount, on leaving it and on Enter: no lookup, no password")
    func overTransferLimit() async {
        let rich = Money(amountMinor: 900_000, currency: "USD")
        let sut = SendMoneyInteractor(
            presenter: presenter, transfers: transfers, preferences: preferences, userID: "u_1", balance: rich, tasks: tasks
        )
        let limit = Money(amountMinor: TransferRules.transferMaxMinor, currency: "USD")
        let over = SendMoney.Form(phoneNumber: "2025550111", amount: "2,000.01")
        #expect(sut.problems(in: over) == [.amount: .amount(.overTransferLimit(limit))])
        #expect(AmountInput.Problem.overTransferLimit(limit).message == "Send at most $2,000.00 at a time.")
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "2000")).isEmpty, "the limit itself can be sent")
        sut.validateField(request: .init(field: .amount, form: over))
        #expect(presenter.presentValidateFieldCalls.last?.problem == .amount(.overTransferLimit(limit)))
        #expect(presenter.presentFormatAmountCalls.isEmpty)
        sut.submit(request: .init(form: over))
        await tasks.settle()
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.amount: .amount(.overTransferLimit(limit))])
        #expect(sut.stage == .form)
        #expect(transfers.lookups.count == 0 && transfers.stepUps.count == 0 && transfers.sends.count == 0)
        // Over the balance too: the balance is what to mend first.
        #expect(makeSUT().problems(in: over) == [.amount: .amount(.overBalance(balance))])
    }

    /// Issue 42, point 11: "You have $X" stayed at the balance Home had when the form opened.
    @Test("the live stream's balance: presented, and what can be sent follows it; another currency or the same balance is ignored")
    func updateBalance() {
        let sut = makeSUT()
        let more = Money(amountMinor: 153_456, currency: "USD")
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "1500")) == [.amount: .amount(.overBalance(balance))])
        sut.updateBalance(request: .init(balance: more))
        #expect(presenter.presentUpdateBalanceCalls.map(\.balance) == [more])
        #expect(sut.problems(in: .init(phoneNumber: "2025550111", amount: "1500")).isEmpty)
        sut.updateBalance(request: .init(balance: more))
        sut.updateBalance(request: .init(balance: Money(amountMinor: 5, currency: "EUR")))
        #expect(presenter.presentUpdateBalanceCalls.count == 1)
        #expect(sut.balance == more)
    }

    @Test("the balance on the confirmation comes with its stage, and Back to the form brings it")
    func updateBalanceOnConfirmation() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: lunch))
        await tasks.settle()
        let more = Money(amountMinor: 153_456, currency: "USD")
        sut.updateBalance(request: .init(balance: more))
        #expect(presenter.presentUpdateBalanceCalls.map(\.stage) == [.confirm])
        sut.back(request: .init())
        #expect(presenter.presentBackCalls.map(\.facts) == [more])
    }

    /// Issue 42, point 11: recent recipients on Send money.
    @Test("the numbers money last went to: loaded for the signed-in user, newest first, once each, at most five; picked into the form")
    func recents() async {
        let jordan = RecentRecipient(number: "+12025550111", name: "Jordan R.")
        let others = (2...6).map { RecentRecipient(number: "+1202555020\($0)", name: "Person \($0)") }
        preferences.saveRecentRecipients([others[0], jordan] + others.dropFirst(), userID: Seeds.session.user.id)
        preferences.saveRecentRecipients([RecentRecipient(number: "+12025550999", name: "Someone else's")], userID: "u_other")
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.last?.recents == [others[0], jordan] + others.dropFirst())
        sut.pickRecent(request: .init(index: 1))
        #expect(presenter.presentPickRecentCalls.map(\.phone) == [Seeds.recipientPhone])
        sut.pickRecent(request: .init(index: 9))
        #expect(presenter.presentPickRecentCalls.count == 1, "no such row")
        // Money to Jordan: first, once, and the oldest falls off.
        await send(sut, lunch)
        let saved = preferences.recentRecipients(userID: Seeds.session.user.id)
        #expect(saved == [jordan, others[0], others[1], others[2], others[3]])
        #expect(preferences.recentRecipients(userID: "u_other").count == 1, "another user's stay theirs")
        sut.pickRecent(request: .init(index: 0))
        #expect(presenter.presentPickRecentCalls.count == 1, "only on the form")
    }

    @Test("nothing sent, nothing remembered; a number that no longer reads as one is left out")
    func recentsOnlyWhenSent() async {
        preferences.saveRecentRecipients([RecentRecipient(number: "not a number", name: "?")], userID: Seeds.session.user.id)
        transfers.sendResult.set(.failure(.timeout))
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.last?.recents == [])
        await send(sut, lunch)
        #expect(preferences.recentRecipients(userID: Seeds.session.user.id).map(\.number) == ["not a number"])
    }

    /// Issue 42, point 11: a note's counter.
    @Test("the note's count: the characters the note keeps (trimmed, as a person counts them) of 140")
    func countNote() {
        let sut = makeSUT()
        sut.countNote(request: .init(note: "  Lunch 🍜 "))
        #expect(presenter.presentCountNoteCalls.last.map { [$0.used, $0.limit] } == [7, 140])
        sut.countNote(request: .init(note: String(repeating: "x", count: 141)))
        #expect(presenter.presentCountNoteCalls.last?.used == 141)
    }

    @Test("a refused form is not looked up")
    func refusedForm() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(phoneNumber: "2025550111", amount: "abc")))
        await tasks.settle()
        #expect(transfers.lookups.count == 0)
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.amount: .amount(.notANumber)])
    }

    @Test("an unknown or own number lands on the phone number in the server's words; the form stays")
    func lookUpRefused() async {
        transfers.recipientResult.set(.failure(.validation(
            detail: "No Skiff account has this phone number.",
            fields: [FieldError(field: "phoneNumber", message: "No Skiff account has this number.")]
        )))
        let sut = makeSUT()
        sut.submit(request: .init(form: lunch))
        await tasks.settle()
        #expect(sut.stage == .form)
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.phoneNumber: .server("No Skiff account has this number.")])
    }

    @Test("a recipient the server refuses on sending lands on the phone number the person found them by")
    func recipientRefused() async {
        let sut = makeSUT()
        let gone = "This account can no longer receive money."
        transfers.sendResult.set(.failure(.validation(detail: gone, fields: [FieldError(field: "recipient", message: gone)])))
        await send(sut, lunch)
        #expect(sut.stage == .form)
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.phoneNumber: .server(gone)])
    }

    @Test("Enter on the confirmation sends it once with a key made then; the receipt's Enter routes on with the transfer")
    func sendsAndRoutes() async {
        var routes: [SendMoneyRoute] = []
        let sut = makeSUT(makeKey: counting())
        sut.route = { routes.append($0) }
        await send(sut, lunch)
        #expect(transfers.sends.all.map(\.key) == ["key-1"])
        #expect(transfers.sends.last?.order == TransferOrder(
            recipientID: "u_2", amount: Money(amountMinor: 1_250, currency: "USD"), note: "Lunch", stepUp: nil
        ))
        #expect(transfers.stepUps.count == 0, "$12.50 needs no password")
        #expect(sut.stage == .receipt)
        guard case .succeeded(.sent(let transfer)) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(transfer == Seeds.sentTransfer)
        #expect(routes.isEmpty, "the receipt stays until the person closes it")
        sut.submit(request: .init(form: lunch))
        guard case .sent(let routed)? = routes.last else {
            Issue.record("routes: \(routes)")
            return
        }
        #expect(routed == Seeds.sentTransfer)
        sut.back(request: .init())
        #expect(routes.count == 2, "Esc on the receipt also returns")
    }

    @Test("exactly once: a retry after a lost answer carries the same key; Esc and the same again too; an edit a new key")
    func keys() async {
        let sut = makeSUT(makeKey: counting())
        transfers.sendResult.set(.failure(.timeout))
        await send(sut, lunch)
        #expect(sut.stage == .confirm, "a lost answer keeps the confirmation")
        sut.submit(request: .init(form: lunch))
        await tasks.settle()
        sut.back(request: .init())
        #expect(sut.stage == .form)
        #expect(presenter.presentBackCalls.last?.stage == .form)
        await send(sut, lunch)
        sut.back(request: .init())
        var edited = lunch
        edited.amount = "12.51"
        await send(sut, edited)
        #expect(transfers.sends.all.map(\.key) == ["key-1", "key-1", "key-1", "key-2"])
    }

    @Test("above the step-up amount: the password is asked for, proved once, and the proof sent with every retry")
    func stepUp() async {
        let sut = makeSUT(makeKey: counting())
        sut.submit(request: .init(form: rent))
        await tasks.settle()
        guard case .succeeded(.confirm(let confirmation)) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(confirmation.needsPassword)
        sut.submit(request: .init(form: rent))
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.password: .password(.empty)])
        transfers.sendResult.set(.failure(.unreachable))
        var withPassword = rent
        withPassword.password = "sail-away-2026"
        sut.submit(request: .init(form: withPassword))
        await tasks.settle()
        transfers.sendResult.set(.success(Seeds.sentTransfer))
        sut.submit(request: .init(form: rent))
        await tasks.settle()
        #expect(transfers.stepUps.all == ["sail-away-2026"])
        #expect(transfers.sends.all.map(\.key) == ["key-1", "key-1"])
        #expect(transfers.sends.all.map(\.order.stepUp) == [StepUpProof(token: "step-up-proof"), StepUpProof(token: "step-up-proof")])
        #expect(sut.stage == .receipt)
    }

    @Test("a wrong password: refused on its field, nothing sent, and the next try proves it again")
    func wrongPassword() async {
        let sut = makeSUT()
        transfers.stepUpResult.set(.failure(.validation(
            detail: "Check the password and try again.", fields: [FieldError(field: "password", message: "The password is not right.")]
        )))
        await send(sut, rent, password: "wrong")
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.password: .server("The password is not right.")])
        #expect(transfers.sends.count == 0)
        transfers.stepUpResult.set(.success(StepUpProof(token: "p2")))
        var right = rent
        right.password = "sail-away-2026"
        sut.submit(request: .init(form: right))
        await tasks.settle()
        #expect(transfers.stepUps.all == ["wrong", "sail-away-2026"])
        #expect(transfers.sends.last?.order.stepUp == StepUpProof(token: "p2"))
    }

    @Test("a proof the server no longer takes is forgotten: the password again, the same key")
    func proofSpent() async {
        let sut = makeSUT(makeKey: counting())
        transfers.sendResult.set(.failure(.stepUpRequired))
        await send(sut, rent, password: "sail-away-2026")
        #expect(presenter.presentSubmitCalls.last.map { if case .failed(.stepUpRequired) = $0.outcome { true } else { false } } == true)
        sut.submit(request: .init(form: rent))
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.password: .password(.empty)])
        transfers.sendResult.set(.success(Seeds.sentTransfer))
        var again = rent
        again.password = "sail-away-2026"
        sut.submit(request: .init(form: again))
        await tasks.settle()
        #expect(transfers.stepUps.count == 2)
        #expect(transfers.sends.all.map(\.key) == ["key-1", "key-1"])
    }

    @Test("a server refusal of what was typed (the balance, a limit) goes back to the form with it on its field")
    func refusedByServer() async {
        let sut = makeSUT()
        let left = "Transfers are limited to $5,000.00 a day; $3.00 is left today."
        transfers.sendResult.set(.failure(.validation(detail: left, fields: [FieldError(field: "amount", message: left)])))
        await send(sut, lunch)
        #expect(sut.stage == .form)
        #expect(presenter.presentBackCalls.map(\.stage) == [.form])
        #expect(presenter.presentBackCalls.last?.facts == balance, "the form's words come back with the balance")
        #expect(presenter.presentSubmitCalls.last?.stage == .form)
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.amount: .server(left)])
    }

    @Test("Esc: on the form it leaves; on the confirmation it goes back to the form; while sending it only cancels")
    func back() async {
        var routes: [SendMoneyRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: lunch))
        await tasks.settle()
        let gate = Gate()
        transfers.gate = gate
        sut.submit(request: .init(form: lunch))
        #expect(sut.inFlight.isRunning)
        sut.back(request: .init())
        await tasks.settle()
        #expect(sut.stage == .confirm, "Esc stopped waiting, and kept the confirmation")
        #expect(routes.isEmpty)
        transfers.gate = nil
        sut.back(request: .init())
        #expect(sut.stage == .form)
        #expect(routes.isEmpty)
        sut.back(request: .init())
        guard case .back? = routes.last else {
            Issue.record("routes: \(routes)")
            return
        }
    }

    @Test("Load presents the balance there is to send from")
    func load() {
        makeSUT().load(request: .init())
        #expect(presenter.presentLoadCalls.map(\.balance) == [balance])
    }
}

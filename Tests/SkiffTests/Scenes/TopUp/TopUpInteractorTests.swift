import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
// The limit catches a gate never opened, not slowness: every @MainActor test of the package shares the main
// thread, and with the whole suite running on two cores busy with other work, one waited past a minute for it.
@Suite("Top up interactor", .timeLimit(.minutes(5)))
struct TopUpInteractorTests {
    let presenter = TopUpPresentationLogicSpy()
    let tasks = TaskTracker()
    let transfers = TransferWorkerDouble.succeeding
    let sleeps = SleepCounter()
    /// The Skiff card, a good added card, a frozen one and an expired one, as Home has them.
    let cards = [Seeds.issuedCard, Seeds.externalCard, Seeds.frozenCard, Seeds.expiredCard]

    func makeSUT(
        cards: [Card]? = nil, clock: SceneClock? = nil, makeKey: @escaping () -> String = { "key-1" }
    ) -> TopUpInteractor {
        TopUpInteractor(
            presenter: presenter, transfers: transfers, cards: cards ?? self.cards, balance: Seeds.summary.balance,
            clock: clock ?? .immediate(sleeps), tasks: tasks, makeKey: makeKey
        )
    }

    /// A fresh key per call: `key-1`, `key-2` …
    func counting() -> () -> String {
        var made = 0
        return { made += 1; return "key-\(made)" }
    }

    let fifty = TopUp.Form(amount: "50")
    let big = TopUp.Form(amount: "$250")

    /// The good card chosen, `form`'s amount continued and confirmed.
    func confirm(_ sut: TopUpInteractor, _ form: TopUp.Form) async {
        sut.chooseCard(request: .init(index: 0))
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
    }

    /// What the last answer to Enter came to (its stage is `lastStage()`).
    func lastSubmit() -> TopUp.Submit.Outcome? { presenter.presentSubmitCalls.last?.outcome }
    func lastStage() -> TopUp.Stage? { presenter.presentSubmitCalls.last?.stage }

    @Test("the added cards are listed (not the Skiff card), the frozen and the expired with why they cannot be used")
    func load() {
        makeSUT().load(request: .init())
        let response = presenter.presentLoadCalls.last
        #expect(response?.choices == [
            .init(card: Seeds.externalCard, refusal: nil),
            .init(card: Seeds.frozenCard, refusal: .frozen),
            .init(card: Seeds.expiredCard, refusal: .expired),
        ])
        #expect(response?.balance == Seeds.summary.balance)
    }

    @Test("a frozen or expired card is refused with its reason and the list stays; a good one moves on to the amount")
    func chooseCard() {
        let sut = makeSUT()
        sut.chooseCard(request: .init(index: 1))
        #expect(sut.stage == .card)
        #expect(presenter.presentChooseCardCalls.last?.choice.refusal == .frozen)
        sut.chooseCard(request: .init(index: 2))
        #expect(presenter.presentChooseCardCalls.last?.choice.refusal == .expired)
        #expect(sut.card == nil)
        sut.chooseCard(request: .init(index: 7))
        #expect(presenter.presentChooseCardCalls.count == 2, "a row that is not there does nothing")
        sut.chooseCard(request: .init(index: 0))
        #expect(sut.stage == .amount)
        #expect(sut.card == Seeds.externalCard)
    }

    @Test("the amount's own checks: zero, too many decimals and not a number refused; a good one written back formatted")
    func amountChecks() {
        let sut = makeSUT()
        sut.chooseCard(request: .init(index: 0))
        #expect(sut.problems(in: .init(amount: "0")) == [.amount: .amount(.notPositive)])
        #expect(sut.problems(in: .init(amount: "12.345")) == [.amount: .amount(.tooManyDecimals(allowed: 2))])
        #expect(sut.problems(in: .init(amount: "lots")) == [.amount: .amount(.notANumber)])
        #expect(sut.problems(in: .init(amount: "")) == [.amount: .amount(.empty)])
        #expect(sut.problems(in: .init(amount: "$5,000")).isEmpty, "more than the balance is fine: the money comes in")
        sut.validateField(request: .init(field: .amount, form: .init(amount: "1,200")))
        #expect(presenter.presentFormatAmountCalls.map(\.amount) == [Money(amountMinor: 120_000, currency: "USD")])
        sut.validateField(request: .init(field: .amount, form: .init(amount: "12,50")))
        #expect(presenter.presentValidateFieldCalls.last?.problem == .amount(.notANumber))
        #expect(presenter.presentFormatAmountCalls.count == 1)
        sut.submit(request: .init(form: .init(amount: "abc")))
        guard case .invalid(let problems) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.amount: .amount(.notANumber)])
        #expect(sut.stage == .amount)
    }

    @Test("Enter on the amount asks to confirm it; nothing is sent before")
    func askToConfirm() {
        let sut = makeSUT()
        sut.chooseCard(request: .init(index: 0))
        sut.submit(request: .init(form: fifty))
        #expect(sut.stage == .confirm)
        guard case .succeeded(.confirm(let confirmation)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(confirmation == .init(card: Seeds.externalCard, amount: Money(amountMinor: 5_000, currency: "USD")))
        #expect(transfers.topUps.count == 0)
    }

    @Test("confirmed: the top-up is asked for once with a key made then; the receipt; Enter routes on with the money")
    func added() async {
        var routes: [TopUpRoute] = []
        let sut = makeSUT(makeKey: counting())
        sut.route = { routes.append($0) }
        await confirm(sut, fifty)
        #expect(transfers.topUps.all.map(\.key) == ["key-1"])
        #expect(transfers.topUps.last?.order == TopUpOrder(card: Seeds.externalCard, amount: Money(amountMinor: 5_000, currency: "USD")))
        #expect(sut.stage == .receipt)
        guard case .succeeded(.added(let money)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(money == Seeds.addedMoney)
        #expect(routes.isEmpty, "the receipt stays until the person closes it")
        sut.submit(request: .init(form: fifty))
        guard case .added(let routed)? = routes.last else {
            Issue.record("routes: \(routes)")
            return
        }
        #expect(routed == Seeds.addedMoney)
        sut.back(request: .init())
        #expect(routes.count == 2, "Esc on the receipt also returns")
    }

    @Test("the card's bank asks its holder to confirm: the bank stage with the address; the server is asked until the money is in")
    func bank() async {
        transfers.topUpResult.set(.success(.waiting(Seeds.pendingTopUp)))
        transfers.progressResults.set(.success([.success(.waiting(Seeds.pendingTopUp)), .success(.added(Seeds.addedMoney))]))
        let sut = makeSUT()
        await confirm(sut, big)
        let waiting = presenter.presentSubmitCalls.compactMap { call -> (PendingTopUp, TopUp.Confirmation)? in
            guard case .succeeded(.waitingForBank(let topUp, let confirmation)) = call.outcome else { return nil }
            #expect(call.stage == .bank)
            return (topUp, confirmation)
        }
        #expect(waiting.count == 1)
        #expect(waiting.first?.0 == Seeds.pendingTopUp)
        #expect(waiting.first?.1.amount.amountMinor == 25_000, "the words name what it adds, from the Interactor")
        #expect(transfers.progressAsked.all == ["tu_2", "tu_2"], "asked again while it waits, then no more")
        #expect(sleeps.count == 2, "a pause before each question")
        #expect(sut.stage == .receipt)
        guard case .succeeded(.added(let money)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(money == Seeds.addedMoney)
    }

    @Test("while the bank is asked, a failed question asks again; a decline goes back to the amount with the reason and a new key")
    func bankDeclined() async {
        let reason = "The payment was not confirmed with the card's bank, so nothing was charged."
        transfers.topUpResult.set(.success(.waiting(Seeds.pendingTopUp)))
        transfers.progressResults.set(.success([.failure(.timeout), .failure(.declined(reason: reason))]))
        let sut = makeSUT(makeKey: counting())
        await confirm(sut, big)
        #expect(transfers.progressAsked.count == 2)
        #expect(sut.stage == .amount)
        guard case .failed(.declined(let said)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(said == reason)
        sut.submit(request: .init(form: big))
        sut.submit(request: .init(form: big))
        await tasks.settle()
        #expect(transfers.topUps.all.map(\.key) == ["key-1", "key-2"], "that top-up is over: the same amount again is a new one")
    }

    @Test("locked while the bank is asked (the app locks itself when idle): it asks again, later when throttled, until the money is in")
    func bankWhileLocked() async {
        transfers.topUpResult.set(.success(.waiting(Seeds.pendingTopUp)))
        transfers.progressResults.set(.success([
            .failure(.locked), .failure(.throttled(retryAfterSeconds: 30)), .failure(.locked), .success(.added(Seeds.addedMoney)),
        ]))
        let pauses = Recorder<Duration>()
        let sut = makeSUT(clock: SceneClock(now: { Seeds.now }, sleep: { pauses.record($0) }))
        await confirm(sut, big)
        #expect(transfers.progressAsked.count == 4)
        #expect(pauses.all == [.seconds(2), .seconds(2), .seconds(30), .seconds(2)], "the server's Retry-After when throttled")
        #expect(sut.stage == .receipt)
        guard case .succeeded(.added(let money)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(money == Seeds.addedMoney)
        #expect(!presenter.presentSubmitCalls.contains { if case .failed = $0.outcome { true } else { false } }, "nothing said of the lock here")
    }

    @Test("Esc while the bank is asked stops asking and says the top-up goes on there; confirming again carries the same key")
    func bankStopped() async {
        transfers.topUpResult.set(.success(.waiting(Seeds.pendingTopUp)))
        transfers.progressResults.set(.success([.success(.waiting(Seeds.pendingTopUp))]))
        let held = HeldSleeps()
        let sut = makeSUT(clock: SceneClock(now: { Seeds.now }, sleep: { try await held.sleep(for: $0) }), makeKey: counting())
        sut.chooseCard(request: .init(index: 0))
        sut.submit(request: .init(form: big))
        sut.submit(request: .init(form: big))
        await tasks.settle(leaving: { held.held })
        #expect(sut.stage == .bank)
        #expect(held.durations == [TopUpInteractor.bankPollInterval], "the pause before the first question")
        #expect(sut.inFlight.isRunning)
        sut.back(request: .init())
        await tasks.settle()
        #expect(sut.stage == .amount)
        guard case .succeeded(.stoppedWaiting(let confirmation)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(confirmation.amount.amountMinor == 25_000)
        #expect(transfers.progressAsked.count == 0, "Esc came before the first question")
        transfers.topUpResult.set(.success(.added(Seeds.addedMoney)))
        sut.submit(request: .init(form: big))
        sut.submit(request: .init(form: big))
        await tasks.settle()
        #expect(transfers.topUps.all.map(\.key) == ["key-1", "key-1"], "the top-up at the bank carries on: the same key")
        #expect(sut.stage == .receipt)
    }

    @Test("a decline goes back to the amount as typed, with the reason; the same again is a new top-up, with a new key")
    func declined() async {
        let reason = "The card's issuer declined the payment: the card has insufficient funds."
        transfers.topUpResult.set(.failure(.declined(reason: reason)))
        let sut = makeSUT(makeKey: counting())
        await confirm(sut, fifty)
        #expect(sut.stage == .amount)
        #expect(presenter.presentBackCalls.map(\.stage) == [.amount])
        #expect(presenter.presentBackCalls.last?.facts.card == Seeds.externalCard, "the amount's words name the card")
        #expect(lastStage() == .amount)
        guard case .failed(.declined(let said)) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(said == reason)
        sut.submit(request: .init(form: fifty))
        sut.submit(request: .init(form: fifty))
        await tasks.settle()
        #expect(transfers.topUps.all.map(\.key) == ["key-1", "key-2"], "a declined top-up is over: the same amount again is a new one")
    }

    @Test("exactly once: a retry after a lost answer carries the same key; Esc and the same again too; an edit a new key")
    func keys() async {
        transfers.topUpResult.set(.failure(.timeout))
        let sut = makeSUT(makeKey: counting())
        await confirm(sut, fifty)
        #expect(sut.stage == .confirm, "a lost answer keeps the confirmation")
        sut.submit(request: .init(form: fifty))
        await tasks.settle()
        sut.back(request: .init())
        #expect(sut.stage == .amount)
        sut.submit(request: .init(form: fifty))
        sut.submit(request: .init(form: fifty))
        await tasks.settle()
        sut.back(request: .init())
        sut.submit(request: .init(form: .init(amount: "50.01")))
        sut.submit(request: .init(form: .init(amount: "50.01")))
        await tasks.settle()
        #expect(transfers.topUps.all.map(\.key) == ["key-1", "key-1", "key-1", "key-2"])
    }

    @Test("an amount the server refuses (over its most at a time) goes back to the amount with its words")
    func refusedByServer() async {
        let most = "Add at most $10,000.00 at a time."
        transfers.topUpResult.set(.failure(.validation(detail: most, fields: [FieldError(field: "amount", message: most)])))
        let sut = makeSUT()
        await confirm(sut, .init(amount: "20000"))
        #expect(sut.stage == .amount)
        guard case .invalid(let problems) = lastSubmit() else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.amount: .server(most)])
    }

    @Test("Esc: one stage back at a time, the list last; while a request runs it only cancels")
    func back() async {
        var routes: [TopUpRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.chooseCard(request: .init(index: 0))
        sut.submit(request: .init(form: fifty))
        let gate = Gate()
        transfers.gate = gate
        sut.submit(request: .init(form: fifty))
        #expect(sut.inFlight.isRunning)
        sut.back(request: .init())
        await tasks.settle()
        #expect(sut.stage == .confirm, "Esc stopped waiting, and kept the confirmation")
        transfers.gate = nil
        sut.back(request: .init())
        #expect(sut.stage == .amount)
        sut.back(request: .init())
        #expect(sut.stage == .card)
        #expect(sut.card == nil)
        #expect(presenter.presentBackCalls.map(\.stage) == [.amount, .card])
        #expect(presenter.presentBackCalls.map(\.facts.card) == [Seeds.externalCard, nil], "each stage comes back with what its words name")
        #expect(presenter.presentBackCalls.allSatisfy { $0.facts.balance == Seeds.summary.balance })
        #expect(routes.isEmpty)
        sut.back(request: .init())
        guard case .back? = routes.last else {
            Issue.record("routes: \(routes)")
            return
        }
    }

    @Test("no added cards: nothing to choose, and Enter does nothing")
    func noCards() {
        let sut = makeSUT(cards: [Seeds.issuedCard])
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.last?.choices.isEmpty == true)
        sut.submit(request: .init(form: fifty))
        #expect(presenter.presentSubmitCalls.isEmpty)
    }
}

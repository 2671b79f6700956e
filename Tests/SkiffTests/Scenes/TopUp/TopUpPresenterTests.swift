import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Top up presenter")
struct TopUpPresenterTests {
    let display = TopUpDisplayLogicSpy()

    func makeSUT() -> TopUpPresenter {
        let sut = TopUpPresenter(formatting: Seeds.utc, keys: .standard)
        sut.viewController = display
        return sut
    }

    let fifty = TopUp.Confirmation(card: Seeds.externalCard, amount: Money(amountMinor: 5_000, currency: "USD"))
    let big = TopUp.Confirmation(card: Seeds.externalCard, amount: Money(amountMinor: 25_000, currency: "USD"))

    @Test("the cards: a good one with its summary, a frozen and an expired one muted with why in a word or two")
    func load() {
        makeSUT().presentLoad(response: .init(
            choices: [
                .init(card: Seeds.externalCard, refusal: nil), .init(card: Seeds.frozenCard, refusal: .frozen),
                .init(card: Seeds.expiredCard, refusal: .expired),
            ],
            balance: Seeds.summary.balance
        ))
        #expect(display.displayLoadCalls.last == .init(
            instructions: "Choose the card to add money from. You have $1,234.56.",
            rows: [
                .init(title: "Visa •••• 4242", detail: "Added card · expires 04/29 · Active", isChoosable: true),
                .init(title: "Mastercard •••• 4444", detail: "Frozen", isChoosable: false),
                .init(title: "Visa •••• 1881", detail: "Expired 10/26", isChoosable: false),
            ],
            currencySign: "$"
        ))
    }

    @Test("no added cards: says so, and how to add one")
    func noCards() {
        makeSUT().presentLoad(response: .init(choices: [], balance: Seeds.summary.balance))
        #expect(display.displayLoadCalls.last == .init(
            instructions: "You have no cards added to top up from. Add one with a on Home, then come back.", rows: [], currencySign: "$"
        ))
    }

    @Test("a card that cannot be used is refused in words on the list; a good one asks for the amount")
    func chooseCard() {
        let sut = makeSUT()
        sut.presentChooseCard(response: .init(choice: .init(card: Seeds.frozenCard, refusal: .frozen)))
        #expect(display.displayChooseCardCalls.last == .init(stage: .card, instructions: nil, banner: BannerMessage(
            .error, "Mastercard •••• 4444 cannot be used. Frozen — unfreeze it on Cards (c on Home, then f)."
        )))
        sut.presentChooseCard(response: .init(choice: .init(card: Seeds.externalCard, refusal: nil)))
        #expect(display.displayChooseCardCalls.last == .init(
            stage: .amount, instructions: "From Visa •••• 4242. How much would you like to add?", banner: nil
        ))
    }

    @Test("an amount refused is worded under its field; one that passes is written as the app writes amounts")
    func amount() {
        let sut = makeSUT()
        sut.presentValidateField(response: .init(field: .amount, problem: .amount(.tooManyDecimals(allowed: 2))))
        #expect(display.displayValidateFieldCalls.last == .init(field: .amount, message: "Use at most 2 decimal places."))
        sut.presentFormatAmount(response: .init(amount: Money(amountMinor: 120_000, currency: "USD")))
        #expect(display.displayFormatAmountCalls.map(\.text) == ["1,200.00"])
    }

    @Test("the confirmation boxes the amount and the card under its question")
    func confirmation() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.succeeded(.confirm(fifty)), at: .confirm))
        #expect(display.displaySubmitCalls.last == .init(stage: .confirm, form: .init(
            instructions: "Check the card and the amount before the money is added.",
            confirmation: .init(title: "Add $50.00 to your wallet?", rows: [
                .init(label: "From", value: "Visa •••• 4242"), .init(label: "Amount", value: "$50.00"),
            ])
        )))
        sut.presentSubmit(response: .init(.succeeded(.confirm(big)), at: .confirm))
        #expect(display.displaySubmitCalls.last?.form.confirmation?.title == "Add $250.00 to your wallet?")
    }

    @Test("the bank stage, from the answer alone: what is paid, the address to confirm it at whole on its own line; or that the network works on it")
    func waitingForBank() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.succeeded(.waitingForBank(Seeds.pendingTopUp, for: big)), at: .bank))
        #expect(display.displaySubmitCalls.last == .init(stage: .bank, form: .init(
            instructions: "Your card's bank asks you to confirm the payment of $250.00 from Visa •••• 4242. Open this address "
                + "to confirm it:\nhttps://bank.example/3ds/tu_2\nThe money is added as soon as your bank says yes."
        )))
        sut.presentSubmit(response: .init(.succeeded(.waitingForBank(PendingTopUp(id: "tu_3", actionURL: nil), for: fifty)), at: .bank))
        #expect(display.displaySubmitCalls.last?.form.instructions
            == "The card network is still working on $50.00 from Visa •••• 4242. The money is added as soon as it is done.")
    }

    @Test("Esc while waiting for the bank: that the money still arrives if confirmed there, and how to wait again")
    func stoppedWaiting() {
        makeSUT().presentSubmit(response: .init(.succeeded(.stoppedWaiting(for: big)), at: .amount))
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(
            .info, "Stopped waiting for your bank. If you confirm the payment there, the money still arrives.",
            prompts: [KeyPrompt(.submit, "confirm $250.00 again to wait once more")]
        ))
    }

    @Test("a decline: the issuer's reason, how to choose another card, the cursor back on the amount")
    func declined() {
        let reason = "The card's issuer declined the payment. Use another card, or ask the issuer why."
        makeSUT().presentSubmit(response: .init(.failed(.declined(reason: reason)), at: .amount))
        let form = display.displaySubmitCalls.last?.form
        #expect(form?.banner == BannerMessage(.error, reason, prompts: [KeyPrompt(.back, "choose another card")]))
        #expect(form?.focus == .amount)
        #expect(form?.clear == [], "the amount is kept")
    }

    @Test("the receipt names the amount, the card and the reference, and says when a retry found the first try's")
    func receipt() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.succeeded(.added(Seeds.addedMoney)), at: .receipt))
        #expect(display.displaySubmitCalls.last == .init(stage: .receipt, form: .init(
            instructions: "Added $50.00 from Visa •••• 4242. Reference SKF-4TOPUP42."
        )))
        var replayed = Seeds.addedMoney
        replayed.replayed = true
        sut.presentSubmit(response: .init(.succeeded(.added(replayed)), at: .receipt))
        #expect(display.displaySubmitCalls.last?.form.instructions?.hasSuffix("The first try had already added it: it was added once.") == true)
    }

    @Test("a lost answer on the confirmation: the money may or may not have been added, and a retry never adds it twice")
    func lostAnswer() {
        makeSUT().presentSubmit(response: .init(.failed(.timeout), at: .confirm))
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(
            .error, "No answer came, so the money may or may not have been added.",
            prompts: [KeyPrompt(.retry, "try again: it is never added twice")]
        ))
    }

    /// Issue 42, point 9: a top-up that could not connect said the money may have been added.
    @Test("no connection on the confirmation (the request never left) says nothing was added; a broken connection keeps the doubt")
    func unreachable() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.failed(.unreachable), at: .confirm))
        let nothing = BannerMessage(.error, "Can't reach the server; nothing was added.", prompts: [KeyPrompt(.retry, "try again")])
        #expect(display.displaySubmitCalls.last?.form.banner == nothing)
        sut.presentSubmit(response: .init(.failed(.connectionLost), at: .confirm))
        #expect(display.displaySubmitCalls.last?.form.banner?.text == "No answer came, so the money may or may not have been added.")
    }

    @Test("the card network did not answer: that nothing was added, in plain words (never the API's header names), and a retry; never the lost-answer doubt")
    func networkUnavailable() {
        let sut = makeSUT()
        let detail = "Nothing was added. Send the same request again, with the same Idempotency-Key, in a moment."
        sut.presentSubmit(response: .init(.failed(.unavailable(detail: detail)), at: .confirm))
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(
            .error, "The card network did not answer, so nothing was added. Try again in a moment.",
            prompts: [KeyPrompt(.retry, "try again")]
        ))
    }

    @Test("Esc back to a stage words it again from the answer alone: the list's words, or the amount's for the card chosen")
    func back() {
        let sut = makeSUT()
        sut.presentBack(response: .init(stage: .amount, facts: .init(balance: Seeds.summary.balance, card: Seeds.externalCard)))
        #expect(display.displayBackCalls.last == .init(stage: .amount, instructions: "From Visa •••• 4242. How much would you like to add?"))
        sut.presentBack(response: .init(stage: .card, facts: .init(balance: Seeds.summary.balance, card: nil)))
        #expect(display.displayBackCalls.last == .init(stage: .card, instructions: "Choose the card to add money from. You have $1,234.56."))
    }
}

import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Send money presenter")
struct SendMoneyPresenterTests {
    let display = SendMoneyDisplayLogicSpy()

    func makeSUT() -> SendMoneyPresenter {
        let sut = SendMoneyPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    let lunch = SendMoney.Confirmation(
        recipient: Seeds.recipient, phone: Seeds.recipientPhone, amount: Money(amountMinor: 1_250, currency: "USD"), note: "Lunch", needsPassword: false
    )
    let rent = SendMoney.Confirmation(
        recipient: Seeds.recipient, phone: Seeds.recipientPhone, amount: Money(amountMinor: 100_000, currency: "USD"), note: nil, needsPassword: true
    )

    @Test("the balance to send from, and +1 to start with")
    func load() {
        makeSUT().presentLoad(response: .init(balance: Seeds.summary.balance))
        #expect(display.displayLoadCalls.last == .init(
            instructions: "Send money to anyone with a Skiff account, by their phone number. You have $1,234.56.", countryCode: "+1",
            currencySign: "$"
        ))
    }

    @Test("a refused form is worded field by field, with the cursor on the first refused field")
    func invalid() {
        makeSUT().presentSubmit(response: .init(.invalid([
            .note: .note(.noteTooLong), .amount: .amount(.overBalance(Seeds.summary.balance)),
        ]), at: .form))
        #expect(display.displaySubmitCalls.last == .init(stage: .form, form: .init(
            fieldErrors: [.note: "Use at most 140 characters.", .amount: "That is more than your balance of $1,234.56."],
            focus: .amount
        )))
    }

    @Test("an amount left that can be sent is written as the app writes amounts, less the sign shown beside the field")
    func formatAmount() {
        makeSUT().presentFormatAmount(response: .init(amount: Money(amountMinor: 120_000, currency: "USD")))
        #expect(display.displayFormatAmountCalls.map(\.text) == ["1,200.00"])
    }

    @Test("the confirmation boxes the recipient's full name, number, amount and note; no password for $12.50; the button says Send $12.50")
    func confirmation() {
        makeSUT().presentSubmit(response: .init(.succeeded(.confirm(lunch)), at: .confirm))
        #expect(display.displaySubmitCalls.last == .init(
            stage: .confirm,
            form: .init(instructions: "Check who gets the money before you send it.", confirmation: .init(
                title: "Send $12.50 to Jordan R.?",
                rows: [
                    .init(label: "To", value: "Jordan Rivera"), .init(label: "Number", value: "+1 202 555 0111"),
                    .init(label: "Amount", value: "$12.50"), .init(label: "Note", value: "“Lunch”"),
                ]
            )),
            sendTitle: "Send $12.50"
        ))
    }

    @Test("a stray key on the confirmation: nothing sent, nothing typed, and which key sends and which goes back")
    func strayKey() {
        let sut = makeSUT()
        sut.presentStrayKey(response: .init(confirmation: lunch))
        #expect(display.displayStrayKeyCalls.last == .init(banner: BannerMessage(
            .info, "Nothing was sent and nothing was typed: this is the confirmation.",
            prompts: [KeyPrompt(.confirmSend, "send $12.50 to Jordan Rivera"), KeyPrompt(.back, "change the number, amount or note")]
        )))
        sut.presentStrayKey(response: .init(confirmation: rent))
        #expect(display.displayStrayKeyCalls.last?.banner.content.prompts.first
            == KeyPrompt(.submit, "send $1,000.00 to Jordan Rivera once your password is typed"))
    }

    @Test("above the step-up amount the confirmation asks for the password and puts the cursor there")
    func confirmationWithPassword() {
        makeSUT().presentSubmit(response: .init(.succeeded(.confirm(rent)), at: .confirm))
        #expect(display.displaySubmitCalls.last?.stage == .confirm)
        #expect(display.displaySubmitCalls.last?.form.focus == .password)
        #expect(display.displaySubmitCalls.last?.form.instructions
            == "Check who gets the money. Amounts over $100.00 need your password to send.")
        #expect(display.displaySubmitCalls.last?.sendTitle == "Send $1,000.00")
    }

    @Test("the receipt: sent, to whom, the reference; and, after a retry found it, that it went once")
    func receipt() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.succeeded(.sent(Seeds.sentTransfer)), at: .receipt))
        #expect(display.displaySubmitCalls.last == .init(stage: .receipt, form: .init(
            clear: [.password], instructions: "Sent $12.50 to Jordan R. Reference SKF-7Q2M9KX4."
        )))
        var replayed = Seeds.sentTransfer
        replayed.replayed = true
        sut.presentSubmit(response: .init(.succeeded(.sent(replayed)), at: .receipt))
        #expect(display.displaySubmitCalls.last?.form.instructions
            == "Sent $12.50 to Jordan R. Reference SKF-7Q2M9KX4. The first try had already sent it: it was sent once.")
    }

    @Test("a lost answer on the confirmation says the money may have gone, and that a retry never sends it twice")
    func lostAnswer() {
        let sut = makeSUT()
        for error in [NetworkError.timeout, .connectionLost, .cancelled, .server(status: 0, detail: "Unreadable answer")] {
            sut.presentSubmit(response: .init(.failed(error), at: .confirm))
            let banner = display.displaySubmitCalls.last?.form.banner
            #expect(banner == BannerMessage(
                .error, "No answer came, so the money may or may not have gone.",
                prompts: [KeyPrompt(.retry, "try again: it is never sent twice")]
            ), "\(error)")
        }
    }

    /// Issue 42, point 9: a send that could not connect said the money may have gone.
    @Test("no connection on the confirmation (the request never left) says nothing was sent, with how to try again")
    func unreachableOnConfirmation() {
        makeSUT().presentSubmit(response: .init(.failed(.unreachable), at: .confirm))
        #expect(display.displaySubmitCalls.last == .init(stage: .confirm, form: .init(
            banner: BannerMessage(.error, "Can't reach the server; nothing was sent.", prompts: [KeyPrompt(.retry, "try again")])
        )))
    }

    @Test("the recent recipients, one line each: the name shown when the money went, and the number")
    func recents() {
        makeSUT().presentLoad(response: .init(balance: Seeds.summary.balance, recents: [
            RecentRecipient(number: "+12025550111", name: "Jordan R."), RecentRecipient(number: "+447700900123", name: "Sam L."),
        ]))
        #expect(display.displayLoadCalls.last?.recents == ["Jordan R. · +1 202 555 0111", "Sam L. · +44 7700 9001 23"])
    }

    @Test("a recent recipient picked: the country code and the number as the form holds them")
    func pickRecent() throws {
        let sut = makeSUT()
        sut.presentPickRecent(response: .init(phone: Seeds.recipientPhone))
        #expect(display.displayPickRecentCalls.last == .init(countryCode: "+1", phoneNumber: "202 555 0111"))
        sut.presentPickRecent(response: .init(phone: try PhoneNumber.parse(e164: "+447700900123")))
        #expect(display.displayPickRecentCalls.last == .init(countryCode: "+44", phoneNumber: "7700 9001 23"))
    }

    @Test("money that arrives: the form's words with the new balance; on the confirmation its words stay")
    func updateBalance() {
        let sut = makeSUT()
        sut.presentUpdateBalance(response: .init(balance: Money(amountMinor: 124_706, currency: "USD"), stage: .form))
        #expect(display.displayUpdateBalanceCalls.last?.instructions
            == "Send money to anyone with a Skiff account, by their phone number. You have $1,247.06.")
        sut.presentUpdateBalance(response: .init(balance: Money(amountMinor: 200_000, currency: "USD"), stage: .confirm))
        #expect(display.displayUpdateBalanceCalls.count == 1, "the confirmation's words stay")
    }

    @Test("the note's count: used of 140, an error past it")
    func countNote() {
        let sut = makeSUT()
        sut.presentCountNote(response: .init(used: 12, limit: 140))
        #expect(display.displayCountNoteCalls.last == .init(text: "12/140", isOver: false))
        sut.presentCountNote(response: .init(used: 140, limit: 140))
        #expect(display.displayCountNoteCalls.last == .init(text: "140/140", isOver: false))
        sut.presentCountNote(response: .init(used: 141, limit: 140))
        #expect(display.displayCountNoteCalls.last == .init(text: "141/140", isOver: true))
    }

    @Test("a lost answer to the lookup is the usual banner with how to try again")
    func lookUpFailed() {
        makeSUT().presentSubmit(response: .init(.failed(.unreachable), at: .form))
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(
            .error, "Can't reach the server. Check the connection and try again.", prompts: [KeyPrompt(.retry, "try again")]
        ))
    }

    @Test("too many lookups lands on the phone number with the wait")
    func tooManyLookups() {
        makeSUT().presentSubmit(response: .init(.failed(.throttled(retryAfterSeconds: 125)), at: .form))
        #expect(display.displaySubmitCalls.last == .init(stage: .form, form: .init(
            fieldErrors: [.phoneNumber: "Too many numbers looked up. Try again in 2:05."], focus: .phoneNumber
        )))
    }

    @Test("a wrong password is cleared, its words on its field")
    func wrongPassword() {
        makeSUT().presentSubmit(response: .init(.invalid([.password: .server("The password is not right.")]), at: .confirm))
        #expect(display.displaySubmitCalls.last == .init(stage: .confirm, form: .init(
            fieldErrors: [.password: "The password is not right."], clear: [.password], focus: .password
        )))
    }

    @Test("a spent proof, or a day's transfers past the step-up amount, asks for the password")
    func stepUpRequired() {
        makeSUT().presentSubmit(response: .init(.failed(.stepUpRequired), at: .confirm))
        #expect(display.displaySubmitCalls.last == .init(stage: .confirm, form: .init(
            fieldErrors: [.password: "Enter your password to send this: today's transfers pass $100.00."], clear: [.password],
            focus: .password
        )))
    }

    @Test("back to the form: its own words again, with the balance the answer brings and nothing said before")
    func back() {
        let sut = makeSUT()
        sut.presentBack(response: .init(stage: .form, facts: Seeds.summary.balance))
        #expect(display.displayBackCalls.last == .init(
            stage: .form, instructions: "Send money to anyone with a Skiff account, by their phone number. You have $1,234.56."
        ))
        sut.presentBack(response: .init(stage: .form, facts: Money(amountMinor: 200_000, currency: "USD")))
        #expect(display.displayBackCalls.last?.instructions.hasSuffix("You have $2,000.00.") == true)
    }

    @Test("the presenter words the stage each answer names: the same refusal on the form, then on the confirmation")
    func stageFromResponse() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.failed(.throttled(retryAfterSeconds: 60)), at: .form))
        #expect(display.displaySubmitCalls.last?.stage == .form)
        #expect(display.displaySubmitCalls.last?.form.fieldErrors[.phoneNumber] == "Too many numbers looked up. Try again in 1:00.")
        sut.presentSubmit(response: .init(.failed(.throttled(retryAfterSeconds: 60)), at: .confirm))
        #expect(display.displaySubmitCalls.last?.stage == .confirm)
        #expect(display.displaySubmitCalls.last?.form.fieldErrors == [:])
        #expect(display.displaySubmitCalls.last?.form.clear == [.password])
    }

    @Test("one field's problem is worded under that field, and no problem clears it")
    func validateField() {
        let sut = makeSUT()
        sut.presentValidateField(response: .init(field: .amount, problem: .amount(.notANumber)))
        sut.presentValidateField(response: .init(field: .amount, problem: nil))
        #expect(display.displayValidateFieldCalls == [
            .init(field: .amount, message: "Enter the amount in figures, such as 12.50."), .init(field: .amount, message: nil),
        ])
    }
}

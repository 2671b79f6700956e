import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Send money screen", .timeLimit(.minutes(3)))
struct SendMoneyScreenTests {
    /// The whole wallet signed in, on Home, then `s`.
    func open(_ configure: (ScreenHarness) -> Void = { _ in }) async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session, configure: configure)
        try await harness.start()
        await harness.send(.character("s"))
        #expect(harness.top is SendMoneyViewController)
        return harness
    }

    /// Number, amount and note, moving on from each field as a person does.
    func fill(_ harness: ScreenHarness, amount: String = "12.5", note: String = "Lunch") async {
        await harness.type("202 555 0111")
        await harness.send(.tab)
        await harness.type(amount)
        await harness.send(.tab)
        await harness.type(note)
    }

    @Test("the form as it first appears: +1, the cursor on the number, the balance named")
    func firstScreen() async throws {
        let harness = try await open()
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money")
    }

    @Test("an amount typed as a person writes it is shown formatted on leaving; a bad one refused in words, kept")
    func amounts() async throws {
        let harness = try await open()
        await harness.type("202 555 0111")
        await harness.send(.tab)
        await harness.type("$1,200")
        await harness.send(.tab)
        #expect(harness.screen.contains("$ 1,200.00"), "the figures beside the field's sign")
        await harness.send(.backTab)
        (harness.top as? SendMoneyViewController)?.amount.clear()
        await harness.type("12.345")
        await harness.send(.tab)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-bad-amount")
        #expect(harness.screen.contains("12.345"))
    }

    @Test("Enter looks the number up: the confirmation in a box, with the full name, number, amount and note; Esc back to the form as it was")
    func confirmation() async throws {
        let harness = try await open()
        await fill(harness)
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-confirm")
        #expect(harness.screen.contains("Jordan Rivera"))
        await harness.send(.escape)
        #expect(harness.top is SendMoneyViewController)
        #expect(harness.screen.contains("202 555 0111") && harness.screen.contains("$ 12.50") && harness.screen.contains("Lunch"))
        #expect(harness.transfers.sends.count == 0)
    }

    /// Issue 42, point 4: Enter, Shift-Tab, Ctrl-U and digits on the confirmation sent $5.00 to the wrong person.
    @Test("on the confirmation Enter does not send (the cursor is on Change); digits and Ctrl-U are answered in words; Shift-Tab goes back with every field")
    func confirmationKeys() async throws {
        let harness = try await open()
        await fill(harness)
        await harness.send(.enter)
        let send = try #require(harness.top as? SendMoneyViewController)
        #expect(send.focusedView === send.changeButton)
        await harness.type("5")
        await harness.send(.ctrl("u"))
        #expect(harness.screen.contains("Nothing was sent and nothing was typed"), "\(harness.screen)")
        #expect(harness.screen.contains("Press y to send $12.50 to"))
        #expect(harness.transfers.sends.count == 0)
        await harness.send(.backTab)
        #expect(send.stage == .form)
        #expect(send.focusedView === send.note)
        #expect(send.phoneNumber.text == "202 555 0111" && send.amount.text == "12.50" && send.note.text == "Lunch")
        #expect(!harness.screen.contains("Nothing was sent"))
        // Enter twice, as on the old screen: the second lands on Change, back to the form; nothing goes.
        await harness.send(.enter)
        await harness.send(.enter)
        #expect(send.stage == .form)
        #expect(harness.transfers.sends.count == 0)
        // `?` is help there too.
        await harness.send(.enter)
        await harness.type("?")
        #expect(harness.screen.contains("Keys: Send money"), "\(harness.screen)")
        #expect(harness.transfers.sends.count == 0)
    }

    @Test("y on the confirmation sends; the receipt; Enter returns to Home, which fetches nothing: the stream moves it")
    func receipt() async throws {
        let harness = try await open()
        await fill(harness)
        await harness.send(.enter)
        await harness.type("y")
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-receipt")
        #expect(harness.transfers.sends.count == 1)
        let loadsBefore = harness.account.calls.count
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.account.calls.count == loadsBefore, "no reload of Home after money went (issue 44, point 3)")
        let sent = Transaction(
            id: "t_sent", amount: Money(amountMinor: -2_500, currency: "USD"), merchant: "Jordan Lee", category: "Transfers",
            createdAt: Seeds.now
        )
        harness.live.send(.event(.moneySent(sent)))
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 120_956, currency: "USD"))))
        #expect(await harness.waitUntil { harness.screen.contains("Balance $1,209.56") && harness.screen.contains("Jordan Lee") },
                "\(harness.screen)")
    }

    @Test("above the step-up amount the confirmation asks for the password; a wrong one is cleared and said")
    func stepUp() async throws {
        let harness = try await open {
            $0.transfers.stepUpResult.set(.failure(.validation(
                detail: "Check the password and try again.",
                fields: [FieldError(field: "password", message: "The password is not right.")]
            )))
        }
        await fill(harness, amount: "1000", note: "")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-step-up")
        await harness.type("wrong-password")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-wrong-password")
        #expect(!harness.screen.contains("•"), "the wrong password was cleared")
        #expect(harness.transfers.sends.count == 0)
    }

    @Test("an unknown number lands on the number's field; the form kept")
    func unknownNumber() async throws {
        let harness = try await open {
            $0.transfers.recipientResult.set(.failure(.validation(
                detail: "No Skiff account has this phone number.",
                fields: [FieldError(field: "phoneNumber", message: "No Skiff account has this number.")]
            )))
        }
        await fill(harness)
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-unknown-number")
        // Leaving the number as it was keeps the server's words; a changed number passes the app's check and clears them.
        await harness.send(.tab)
        #expect(harness.screen.contains("No Skiff account has this number."), "\(harness.screen)")
        await harness.send(.backTab)
        await harness.send(.backspace)
        await harness.type("2")
        await harness.send(.tab)
        #expect(!harness.screen.contains("No Skiff account has this number."), "\(harness.screen)")
    }

    @Test("the day's limit from the server: back on the form, in words with what is left today")
    func limit() async throws {
        let left = "Transfers are limited to $5,000.00 a day; $3.00 is left today."
        let harness = try await open {
            $0.transfers.sendResult.set(.failure(.validation(detail: left, fields: [FieldError(field: "amount", message: left)])))
        }
        await fill(harness)
        await harness.send(.enter)
        await harness.type("y")
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-limit")
    }

    @Test("a lost answer: the confirmation kept, saying the money may have gone and that a retry sends it once")
    func lostAnswer() async throws {
        let harness = try await open { $0.transfers.sendResult.set(.failure(.timeout)) }
        await fill(harness)
        await harness.send(.enter)
        await harness.type("y")
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-lost-answer")
        harness.transfers.sendResult.set(.success(Seeds.sentTransfer))
        await harness.send(.ctrl("r"))
        #expect(harness.screen.contains("Sent $12.50 to Jordan R."))
        #expect(Set(harness.transfers.sends.all.map(\.key)).count == 1)
    }

    /// Issue 42, point 9.
    @Test("a send that could not connect says nothing was sent; the confirmation stays for a retry")
    func unreachable() async throws {
        let harness = try await open { $0.transfers.sendResult.set(.failure(.unreachable)) }
        await fill(harness)
        await harness.send(.enter)
        await harness.type("y")
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-unreachable")
        #expect(harness.screen.contains("Can't reach the server; nothing was sent."))
        #expect(!harness.screen.contains("may or may not"))
    }

    /// Issue 42, point 11: the limit of one transfer was said only after the password.
    @Test("an amount over one transfer's limit is refused on the amount as the person leaves it, and on Enter: no lookup, no password")
    func overLimit() async throws {
        var rich = Seeds.summary
        rich.balance = Money(amountMinor: 900_000, currency: "USD")
        let harness = try await open { $0.account.summaryResult.set(.success(rich)) }
        await harness.type("202 555 0111")
        await harness.send(.tab)
        await harness.type("2500")
        await harness.send(.tab)
        #expect(harness.screen.contains("Send at most $2,000.00 at a time."), "\(harness.screen)")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-over-limit")
        #expect(harness.transfers.lookups.count == 0 && harness.transfers.stepUps.count == 0)
        #expect((harness.top as? SendMoneyViewController)?.stage == .form)
    }

    /// Issue 42, point 11: a show-password toggle.
    @Test("the step-up's password: Ctrl-T shows what is typed and hides it again, as leaving the field does; the status bar names it")
    func showPassword() async throws {
        let harness = try await open()
        await fill(harness, amount: "1000", note: "")
        await harness.send(.enter)
        #expect(harness.screen.contains("Ctrl-T show password"), "\(harness.screen)")
        await harness.type("sail-away-2026")
        #expect(!harness.screen.contains("sail-away-2026"))
        await harness.send(.ctrl("t"))
        #expect(harness.screen.contains("sail-away-2026"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-password-shown")
        await harness.send(.ctrl("t"))
        #expect(!harness.screen.contains("sail-away-2026"))
        await harness.send(.ctrl("t"))
        await harness.send(.tab)
        #expect(!harness.screen.contains("sail-away-2026"), "leaving the field hides it")
        // Change, the send button, and round to the password again.
        await harness.send(.tab, .tab)
        let send = try #require(harness.top as? SendMoneyViewController)
        #expect(send.focusedView === send.password)
        #expect(!harness.screen.contains("sail-away-2026"), "coming back does not show it again")
        #expect(send.password.text == "sail-away-2026", "nothing typed was lost")
        #expect(harness.transfers.sends.count == 0)
    }

    /// Issue 42, point 11: recent recipients on Send money.
    @Test("the numbers money last went to, under the empty number: ↓ and Enter fill the number and go on to the amount; typing hides them")
    func recents() async throws {
        let harness = try await open {
            $0.preferences.saveRecentRecipients([
                RecentRecipient(number: "+12025550111", name: "Jordan R."), RecentRecipient(number: "+12025550122", name: "Sam L."),
            ], userID: Seeds.session.user.id)
        }
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-recents")
        let send = try #require(harness.top as? SendMoneyViewController)
        #expect(send.focusedView === send.phoneNumber)
        await harness.send(.down, .down)
        #expect(send.focusedView === send.recentButtons[1])
        await harness.send(.enter)
        #expect(send.countryCode.text == "+1" && send.phoneNumber.text == "202 555 0122")
        #expect(send.focusedView === send.amount)
        #expect(!harness.screen.contains("Jordan R."))
        await harness.send(.backTab)
        #expect(send.focusedView === send.phoneNumber)
        await harness.send(.ctrl("u"))
        #expect(harness.screen.contains("Jordan R. · +1 202 555 0111"))
        await harness.type("2")
        #expect(!harness.screen.contains("Jordan R."), "a number typed hides the list")
        #expect(harness.transfers.lookups.count == 0)
    }

    @Test("money sent is remembered: the next Send money offers its number first")
    func remembersRecipient() async throws {
        let harness = try await open()
        #expect(!harness.screen.contains("Recent"))
        await fill(harness)
        await harness.send(.enter)
        await harness.type("y")
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        await harness.send(.character("s"))
        #expect(harness.screen.contains("Recent           [ Jordan R. · +1 202 555 0111 ]"), "\(harness.screen)")
        #expect(harness.preferences.recentRecipients(userID: Seeds.session.user.id).map(\.number) == ["+12025550111"])
    }

    /// Issue 42, point 11: a note's counter.
    @Test("the note counts its characters beside it; past 140 the count is an error, and Enter refuses the note in words, all of it kept")
    func noteCount() async throws {
        let harness = try await open()
        #expect(harness.screen.contains("0/140"))
        await fill(harness, note: "Lunch")
        #expect(harness.screen.contains("5/140"))
        await harness.type(String(repeating: "x", count: 136))
        #expect(harness.screen.contains("141/140"))
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "send-money-note-too-long")
        #expect(harness.screen.contains("Use at most 140 characters."))
        #expect((harness.top as? SendMoneyViewController)?.note.text.count == 141)
        #expect(harness.transfers.lookups.count == 0)
    }

    /// Issue 42, point 11: Send's "You have $X" did not follow money that arrived.
    @Test("money that arrives while the form is open: You have follows it, and so does what can be sent")
    func balanceFollows() async throws {
        let harness = try await open()
        #expect(await harness.waitUntil { harness.live.isOpen })
        await harness.type("202 555 0111")
        await harness.send(.tab)
        await harness.type("1240")
        await harness.send(.tab)
        #expect(harness.prose.contains("That is more than your balance of $1,234.56."))
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD"))))
        #expect(await harness.waitUntil { harness.screen.contains("You have $1,247.06.") }, "\(harness.screen)")
        await harness.send(.enter)
        #expect(harness.transfers.lookups.count == 1, "$1,240.00 can be sent now")
    }
}

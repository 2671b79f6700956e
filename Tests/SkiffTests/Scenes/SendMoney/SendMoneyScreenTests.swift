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
        #expect(harness.screen.contains("$1,200.00"))
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
        #expect(harness.screen.contains("202 555 0111") && harness.screen.contains("$12.50") && harness.screen.contains("Lunch"))
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
        #expect(send.phoneNumber.text == "202 555 0111" && send.amount.text == "$12.50" && send.note.text == "Lunch")
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

    @Test("y on the confirmation sends; the receipt; Enter returns to Home, which reloads")
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
        #expect(harness.account.calls.count > loadsBefore, "Home reloads its list after money went")
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
            $0.transfers.sendResult.set(.failure(.validation(detail: left, fields: [FieldError(field: "amountMinor", message: left)])))
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
}

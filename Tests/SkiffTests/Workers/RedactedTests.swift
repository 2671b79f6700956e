import Foundation
import SkiffCore
import Testing
@testable import Skiff

@Suite("Redacted descriptions")
struct RedactedTests {
    static let number = "378282246310005"
    static let securityCode = "7391"
    static let password = "correct horse battery"
    static let code = "481516"

    /// A value holding secrets, with the secrets it holds.
    struct Holder: @unchecked Sendable, CustomTestStringConvertible {
        var name: String
        var value: Any
        var secrets: [String]
        var testDescription: String { name }
    }

    static let holders: [Holder] = {
        let card = try! CardNumber(number)
        let expiry = try! CardExpiry(month: 12, year: 2031, now: Seeds.now)
        let newCard = NewCard(number: card, expiry: expiry, securityCode: securityCode, holderName: "Sam Carter")
        let addCardForm = AddCard.Form(number: number, holderName: "Sam Carter", expiry: "12/31", securityCode: securityCode)
        let loginForm = Login.Form(countryCode: "+1", phoneNumber: "2025550100", password: password)
        return [
            Holder(name: "NewCard", value: newCard, secrets: [number, securityCode]),
            Holder(name: "Registration", value: Registration(phone: Seeds.phone, fullName: "Sam", password: password), secrets: [password]),
            Holder(name: "Login.Form", value: loginForm, secrets: [password]),
            Holder(
                name: "Login.Navigate.Request", value: Login.Navigate.Request(destination: .register, form: loginForm),
                secrets: [password]
            ),
            Holder(
                name: "Register.Form",
                value: Register.Form(countryCode: "+1", phoneNumber: "2025550100", fullName: "Sam", password: password, confirmPassword: password),
                secrets: [password]
            ),
            Holder(
                name: "ForgotPassword.Form",
                value: ForgotPassword.Form(countryCode: "+1", phoneNumber: "2025550100", code: code, newPassword: password, confirmPassword: password),
                secrets: [code, password]
            ),
            Holder(
                name: "ForgotPassword.Submit.Response",
                value: ForgotPassword.Submit.Response(
                    .succeeded(.codeSent(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: code)), at: .reset
                ),
                secrets: [code]
            ),
            Holder(name: "AddCard.Form", value: addCardForm, secrets: [number, securityCode]),
            Holder(name: "AddCard.Submit.Request", value: AddCard.Submit.Request(form: addCardForm), secrets: [number, securityCode]),
            Holder(name: "AddCard.NumberChanged.Request", value: AddCard.NumberChanged.Request(digits: number), secrets: [number]),
            Holder(name: "ActivateCard.Form", value: ActivateCard.Form(last4: "0005", code: code), secrets: [code]),
            Holder(
                name: "ActivateCard.Submit.Response",
                value: ActivateCard.Submit.Response(.succeeded(.codeSent(Seeds.challenge, developmentCode: code)), at: .code),
                secrets: [code]
            ),
            Holder(name: "VerifyPhone.Form", value: VerifyPhone.Form(code: code), secrets: [code]),
            Holder(name: "VerifyPhone.Submit.Request", value: VerifyPhone.Submit.Request(form: VerifyPhone.Form(code: code)), secrets: [code]),
            Holder(
                name: "VerifyPhone.Load.Response",
                value: VerifyPhone.Load.Response(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: code),
                secrets: [code]
            ),
            Holder(name: "Session", value: Seeds.session, secrets: [Seeds.session.token]),
            Holder(name: "Lock.Form", value: Lock.Form(password: password), secrets: [password]),
            Holder(name: "Lock.Submit.Request", value: Lock.Submit.Request(form: Lock.Form(password: password)), secrets: [password]),
        ]
    }()

    @Test("Printing, debug-printing or dumping a value that holds a secret shows none of it", arguments: holders)
    func nothingSecretShown(holder: Holder) {
        var dumped = ""
        dump(holder.value, to: &dumped)
        let renderings = [String(describing: holder.value), String(reflecting: holder.value), "\(holder.value)", dumped]
        for text in renderings {
            for secret in holder.secrets {
                #expect(!text.contains(secret), "\(text)")
            }
            #expect(text.contains("<redacted>") || text.contains("•••• 0005"), "\(text)")
        }
    }

    @Test("A new card shows its brand and last four")
    func newCardShowsBrandAndLastFour() throws {
        let card = NewCard(
            number: try CardNumber(Self.number), expiry: try CardExpiry(month: 12, year: 2031, now: Seeds.now),
            securityCode: Self.securityCode, holderName: "Sam Carter"
        )
        #expect("\(card)" == "American Express •••• 0005")
    }
}

@Suite("Server address in logs")
struct RedactedServerURLTests {
    @Test("User information is dropped from the address; the rest is kept", arguments: [
        ("https://sam:s3cr3t-pass@bank.example:8443/api", "https://bank.example:8443/api"),
        ("http://token-only@127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("https://bank.example/v1?region=eu", "https://bank.example/v1?region=eu"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
    ])
    func userInformationDropped(address: String, logged: String) throws {
        let url = try #require(URL(string: address))
        #expect(url.redactedForLog == logged)
        #expect(!url.redactedForLog.contains("s3cr3t") && !url.redactedForLog.contains("token-only"))
    }
}

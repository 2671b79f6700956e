import Crypto
import Foundation
import SkiffCore
import Testing
@testable import SkiffServer
import SkiffPasswords

@Suite("Services")
struct ServicesTests {
    @Test("A card being added, a code being sent and a PostgreSQL URL print none of their secrets")
    func serverValuesAreRedacted() throws {
        let card = CardService.NewCard(cardToken: "tok_sim_c2VjcmV0LXRva2Vu.abc123", holderName: "Samantha Carterwright")
        let code = OutgoingCode(to: "+12025550100", code: "481516", purpose: .registration, sentAt: Date())
        let url = try PostgresURL("postgres://skiff:s3cret-pw@db:6432/wallet", environment: [:])
        let secrets = ["c2VjcmV0LXRva2Vu", "abc123", "Carterwright", "481516", "s3cret-pw"]
        for value in [card, code, url] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            for printed in [String(describing: value), String(reflecting: value), "\(value)", dumped] {
                #expect(!secrets.contains { printed.contains($0) }, "\(type(of: value)) printed \(printed)")
            }
        }
        #expect(String(describing: code).contains("+12025550100"))
    }

    @Test("One-time codes are six digits and vary")
    func codes() {
        let codes = (0..<200).map { _ in OneTimeCodeService.generateCode() }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
        #expect(Set(codes).count > 190)
    }

    @Test("Session tokens are 32 random bytes, hashed with SHA-256")
    func tokens() {
        let token = SessionToken.generate()
        #expect(Data(base64URLEncoded: token)?.count == 32)
        #expect(SessionToken.generate() != token)
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1), as lowercase hex.
        #expect(SessionToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("Bytes print as two lowercase hex digits each")
    func hex() {
        #expect([UInt8]().hexString == "")
        #expect([0x00, 0x0f, 0xa5, 0xff].hexString == "000fa5ff")
    }

    @Test("The SMS outbox gets one JSON line per code, {to, code, purpose, sentAt}")
    func smsOutbox() async throws {
        let server = try TestServer(useOutboxFile: true)
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+44", "phoneNumber": "07700 900123", "fullName": "Jo", "password": Seeds.password],
                idempotencyKey: "k"
            )
            _ = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550100"])
        }
        let text = try String(contentsOfFile: server.configuration.smsOutboxPath, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["to", "code", "purpose", "sentAt"])
        #expect(object["to"] as? String == "+447700900123")
        #expect(object["purpose"] as? String == "registration")
        #expect((object["sentAt"] as? String)?.hasSuffix("Z") == true)
        let messages = SMSOutboxCodeSender.messages(at: server.configuration.smsOutboxPath)
        #expect(messages.first?.code == object["code"] as? String)
        let attributes = try FileManager.default.attributesOfItem(atPath: server.configuration.smsOutboxPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("The bundled common-passwords list has at least 3,000 entries, every one of them allowed by the length rules")
    func commonPasswordsList() throws {
        let list = try CommonPasswords.load()
        #expect(list.count >= 3_000)
        #expect(list.allSatisfy { (try? PasswordPolicy.check($0)) != nil })
        #expect(list.allSatisfy { $0 == $0.lowercased() })
        #expect(list.isSuperset(of: ["password", "password123", "iloveyou", "qwertyuiop", "1q2w3e4r5t"]))
        #expect(!list.contains(where: { $0.hasPrefix("#!comment") }))
    }

    @Test("Transaction cursors round-trip and refuse junk")
    func cursors() {
        let cursor = TransactionCursor(createdAt: 1_790_000_000_123, id: 42)
        #expect(TransactionCursor(encoded: cursor.encoded) == cursor)
        #expect(TransactionCursor(encoded: "!!!") == nil)
        #expect(TransactionCursor(encoded: Data("1.x".utf8).base64URLEncodedString()) == nil)
    }

    @Test("LIKE wildcards in a search are taken literally")
    func likeEscaping() {
        #expect(LikePattern.escape("50%_off\\") == "50\\%\\_off\\\\")
    }

    @Test("A new account opens one way: the opening balance, an inactive card in the user's name, its transaction, a welcome")
    func accountOpening() {
        let key = ServerKey(key: SymmetricKey(size: .bits256))
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let limits = SkiffServerLimits()
        let account = NewAccount.opening(
            userID: "u", phone: "+12025550100", countryCode: "1", nationalNumber: "2025550100", fullName: "Sam Carter",
            passwordHash: "hash", limits: limits, key: key, now: now
        )
        #expect(account.user.balanceMinor == limits.openingBalanceMinor && account.user.createdAt == now)
        #expect(account.issuedCard.userID == "u" && account.issuedCard.holderName == "Sam Carter")
        #expect(account.issuedCard.kind == .issued && account.issuedCard.status == .inactive)
        #expect(account.openingTransaction.amountMinor == limits.openingBalanceMinor)
        #expect(account.openingTransaction.category == "Opening balance" && account.openingTransaction.createdAt == now)
        #expect(account.welcome.userID == "u" && account.welcome.readAt == nil && account.welcome.createdAt == now)

        let openedAt = now.addingTimeInterval(-86_400)
        let backDated = NewAccount.opening(
            userID: "d", phone: "+12025550101", countryCode: "1", nationalNumber: "2025550101", fullName: "Demo",
            passwordHash: "hash", limits: limits, key: key, now: now, openedAt: openedAt, balanceMinor: 5,
            welcomeReadAt: openedAt.addingTimeInterval(600)
        )
        #expect(backDated.user.createdAt == openedAt && backDated.user.balanceMinor == 5)
        #expect(backDated.openingTransaction.createdAt == openedAt && backDated.openingTransaction.amountMinor == limits.openingBalanceMinor)
        #expect(backDated.welcome.readAt == openedAt.addingTimeInterval(600))
        #expect(backDated.issuedCard.createdAt == now)
    }

    @Test("An issued card number is a 16-digit Visa that passes Luhn")
    func issuedCard() throws {
        let key = ServerKey(key: SymmetricKey(size: .bits256))
        let card = IssuedCard.make(userID: "u", holderName: "Sam", key: key, now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(card.kind == .issued && card.status == .inactive && card.brand == "visa")
        #expect(card.expiryYear == 2030 && card.expiryMonth == 9)
        for _ in 0..<50 {
            let number = IssuedCard.randomVisaNumber()
            #expect(number.count == 16 && number.hasPrefix("4"))
        }
    }
}

import Foundation
import SkiffCore

/// The virtual card every account is issued: a fresh Visa number whose digits are dropped once its last
/// four and fingerprint are taken.
enum IssuedCard {
    static func make(userID: String, holderName: String, key: ServerKey, now: Date) -> CardRecord {
        let digits = randomVisaNumber()
        let issued = CalendarMonth(containing: now)
        return CardRecord(
            id: UUID().uuidString.lowercased(), userID: userID, kind: .issued, brand: CardBrand.visa.rawValue,
            last4: String(digits.suffix(4)), expiryMonth: issued.month, expiryYear: issued.year + 4,
            holderName: holderName, status: .inactive, fingerprint: key.cardFingerprint(digits), createdAt: now
        )
    }

    /// Sixteen digits starting with 4 that pass the Luhn check.
    static func randomVisaNumber() -> String {
        var generator = SystemRandomNumberGenerator()
        var digits = "4" + (0..<14).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        for check in 0...9 where CardNumber.passesLuhn(digits + String(check)) {
            digits += String(check)
            break
        }
        return digits
    }
}

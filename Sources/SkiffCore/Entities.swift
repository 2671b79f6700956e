import Foundation

/// A person with an account.
public struct User: Hashable, Sendable, Codable {
    public var id: String
    public var fullName: String
    /// `+1`.
    public var countryCode: String
    /// The national number, digits only.
    public var phoneNumber: String

    public init(id: String, fullName: String, countryCode: String, phoneNumber: String) {
        self.id = id
        self.fullName = fullName
        self.countryCode = countryCode
        self.phoneNumber = phoneNumber
    }
}

/// A signed-in session. The token is a bearer secret: `description` never shows it.
public struct Session: Hashable, Sendable, Codable, Redacted {
    public var token: String
    public var expiresAt: Date
    public var user: User
    /// Locked (the idle lock, or the server said so): only the password opens it again.
    public var isLocked: Bool

    public init(token: String, expiresAt: Date, user: User, isLocked: Bool = false) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
        self.isLocked = isLocked
    }

    /// Reads a session saved before sessions could be locked as not locked.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            token: try container.decode(String.self, forKey: .token),
            expiresAt: try container.decode(Date.self, forKey: .expiresAt),
            user: try container.decode(User.self, forKey: .user),
            isLocked: try container.decodeIfPresent(Bool.self, forKey: .isLocked) ?? false
        )
    }

    /// Whether the session's absolute lifetime has passed at `now`.
    public func isExpired(at now: Date) -> Bool { expiresAt <= now }

    public var redactedDescription: String {
        "Session(user: \(user.id), expiresAt: \(expiresAt), isLocked: \(isLocked), token: <redacted>)"
    }
}

/// What Home shows at the top: who, how much, how many unread notifications.
public struct AccountSummary: Hashable, Sendable, Codable {
    public var user: User
    public var balance: Money
    public var unreadNotifications: Int

    public init(user: User, balance: Money, unreadNotifications: Int) {
        self.user = user
        self.balance = balance
        self.unreadNotifications = unreadNotifications
    }
}

/// Money in or out of the account.
public struct Transaction: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    /// Negative for money going out.
    public var amount: Money
    public var merchant: String
    public var category: String
    public var createdAt: Date
    /// What the sender wrote on a transfer; nil when nothing was.
    public var note: String?
    /// The reference a transfer or top-up is known by (`SKF-…`, as its receipt says); nil for a card purchase.
    public var reference: String?

    public init(
        id: String, amount: Money, merchant: String, category: String, createdAt: Date, note: String? = nil,
        reference: String? = nil
    ) {
        self.id = id
        self.amount = amount
        self.merchant = merchant
        self.category = category
        self.createdAt = createdAt
        self.note = note
        self.reference = reference
    }
}

/// One page of transactions, newest first; `nextCursor` is nil on the last page. `searchLimit` is set when the
/// query was too short for the server's search index: only that many of the newest transactions were searched.
public struct TransactionPage: Hashable, Sendable, Codable {
    public var items: [Transaction]
    public var nextCursor: String?
    public var searchLimit: Int?

    public init(items: [Transaction], nextCursor: String?, searchLimit: Int? = nil) {
        self.items = items
        self.nextCursor = nextCursor
        self.searchLimit = searchLimit
    }
}

/// A message to the user from the bank.
public struct AppNotification: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var title: String
    public var body: String
    public var createdAt: Date
    public var read: Bool

    public init(id: String, title: String, body: String, createdAt: Date, read: Bool) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.read = read
    }
}

/// Whether a card was issued by Skiff or added from another bank.
public enum CardKind: String, Hashable, Sendable, Codable {
    case issued
    case external
}

/// Whether a card can be used yet.
public enum CardStatus: String, Hashable, Sendable, Codable {
    case inactive
    case active
}

/// A card as the server knows it: never the whole number, never the security code.
public struct Card: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var kind: CardKind
    public var brand: CardBrand
    public var last4: String
    public var expiryMonth: Int
    public var expiryYear: Int
    public var holderName: String
    public var status: CardStatus
    /// Frozen by its owner: it cannot be used or activated until unfrozen; `status` is kept as it was.
    public var frozen: Bool

    public init(
        id: String, kind: CardKind, brand: CardBrand, last4: String,
        expiryMonth: Int, expiryYear: Int, holderName: String, status: CardStatus, frozen: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.brand = brand
        self.last4 = last4
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.holderName = holderName
        self.status = status
        self.frozen = frozen
    }

    /// Reads a card saved before cards could be frozen as not frozen.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), kind: try container.decode(CardKind.self, forKey: .kind),
            brand: try container.decode(CardBrand.self, forKey: .brand), last4: try container.decode(String.self, forKey: .last4),
            expiryMonth: try container.decode(Int.self, forKey: .expiryMonth),
            expiryYear: try container.decode(Int.self, forKey: .expiryYear),
            holderName: try container.decode(String.self, forKey: .holderName),
            status: try container.decode(CardStatus.self, forKey: .status),
            frozen: try container.decodeIfPresent(Bool.self, forKey: .frozen) ?? false
        )
    }

    /// `•••• 4242`.
    public var masked: String { CardNumber.mask(last4: last4) }

    /// `Visa •••• 4242`.
    public var name: String { CardNumber.name(brand: brand, last4: last4) }
}

/// A one-time code was sent; the code goes back with this id.
public struct VerificationChallenge: Hashable, Sendable, Codable {
    public var verificationId: String
    public var expiresAt: Date

    public init(verificationId: String, expiresAt: Date) {
        self.verificationId = verificationId
        self.expiresAt = expiresAt
    }
}

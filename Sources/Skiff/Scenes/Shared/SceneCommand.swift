import TerminalUI

/// What a key does in the wallet, named so a screen binds it and a Presenter's wording points at it without
/// knowing the key: `WalletKeys.standard` (App/WalletKeys.swift) says which key that is.
enum SceneCommand: Hashable, Sendable, CaseIterable {
    case submit, retry, back
    /// Sends money from its confirmation: a key of its own, never Enter, so the Enter that looked the number up
    /// cannot also send.
    case confirmSend
    /// From a confirmation back to its form, every field kept, as Shift-Tab leaves a field backwards.
    case previousStep
    case refresh, search, toggleSpending
    case addCard, activateCard, openCards, openNotifications, sendMoney, topUp
    case freezeCard, removeCard
    case markRead, markAllRead
    case createAccount, forgotPassword
    case logout, quit
    /// Log out and quit on a screen where letters type into a field, so their key is not a letter.
    case logoutWhileTyping, quitWhileTyping
    /// Shows the password typed in the focused password field, or hides it again; a password field takes letters,
    /// so its key is not a letter.
    case showPassword
}

/// The wallet's keys: every scene binds through it, and every sentence that names a key asks it.
typealias WalletKeys = KeyMap<SceneCommand>

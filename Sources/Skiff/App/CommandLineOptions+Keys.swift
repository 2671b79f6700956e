import SkiffConfigFile
import TerminalUI

/// The wallet's screens and the commands each binds, for skiff(1)'s KEYS section: the keys and their help come from
/// the key map (`WalletKeys.standard`), the commands from this table, which `ScreenKeysTests` holds to every
/// `bind(…)` and `describe(…)` in each scene's ViewController (a command bound there and missing here, or listed here
/// and bound nowhere there, fails it).
extension CommandLineOptions {
    /// One screen: its scene (the folder `Sources/Skiff/Scenes/<scene>/`), its title as the screen shows it, and the
    /// commands it binds in any of its states, in the order the man page lists them. Esc (`.back`) is every screen's and
    /// is not listed.
    struct ScreenKeys: Sendable, Equatable {
        let scene: String
        let title: String
        let commands: [SceneCommand]
    }

    /// Every scene, in the order a person meets them (a part of a screen after the screen).
    static let screenKeys: [ScreenKeys] = [
        ScreenKeys(scene: "Launch", title: "Skiff", commands: []),
        ScreenKeys(
            scene: "Login", title: "Log in",
            commands: [.submit, .retry, .createAccount, .forgotPassword, .quitWhileTyping, .showPassword]
        ),
        ScreenKeys(scene: "Register", title: "Create account", commands: [.submit, .retry, .showPassword]),
        ScreenKeys(scene: "VerifyPhone", title: "Verify phone", commands: [.submit, .retry]),
        ScreenKeys(scene: "ForgotPassword", title: "Forgot password", commands: [.submit, .retry, .showPassword]),
        ScreenKeys(scene: "Lock", title: "Locked", commands: [.submit, .logoutWhileTyping, .showPassword]),
        ScreenKeys(
            scene: "Home", title: "Home",
            commands: [
                .sendMoney, .topUp, .openCards, .addCard, .activateCard, .openNotifications, .search, .refresh,
                .toggleSpending, .logout, .quit,
            ]
        ),
        // Home's parts: the keys that work on them are Home's (the list's and the chart's are the kit's).
        ScreenKeys(scene: "Balance", title: "Balance", commands: []),
        ScreenKeys(scene: "CardsPanel", title: "Cards panel", commands: []),
        ScreenKeys(scene: "Spending", title: "Spending", commands: []),
        ScreenKeys(scene: "Transactions", title: "Transactions", commands: []),
        ScreenKeys(scene: "TransactionDetail", title: "Transaction", commands: []),
        ScreenKeys(scene: "SendMoney", title: "Send money", commands: [.submit, .confirmSend, .previousStep, .retry, .showPassword]),
        ScreenKeys(scene: "TopUp", title: "Top up", commands: [.submit, .retry]),
        ScreenKeys(scene: "Cards", title: "Cards", commands: [.freezeCard, .activateCard, .removeCard, .addCard]),
        ScreenKeys(scene: "CardDetail", title: "Card", commands: [.freezeCard, .removeCard]),
        ScreenKeys(scene: "AddCard", title: "Add card", commands: [.submit]),
        ScreenKeys(scene: "ActivateCard", title: "Activate card", commands: [.submit]),
        ScreenKeys(scene: "Notifications", title: "Notifications", commands: [.markRead, .markAllRead, .refresh]),
    ]

    /// The KEYS section: the keys every screen has (the kit's and Esc), then each screen that binds keys of its own.
    static var keysSection: [ManPage.Block] {
        let keys = WalletKeys.standard
        func names(_ keys: [Key]) -> [String] { keys.map(\.label) }
        func entry(_ command: SceneCommand) -> ManPage.Entry {
            ManPage.Entry(names: names(keys.keys(for: command)), valueName: nil, help: keys.entry(for: command).help)
        }
        var blocks: [ManPage.Block] = [
            .paragraph("The standard keys; the [\(keysTable)] table of the configuration file gives commands other keys "
                + "(CONFIGURATION names each command). The status bar shows the keys a screen has at that moment; "
                + "\(names(KitKeys.help).joined(separator: " or ")) shows them all."),
            .subsection("Every screen"),
            .options([
                ManPage.Entry(names: names(KitKeys.help), valueName: nil, help: "show this screen's keys, in a text field too"),
                ManPage.Entry(
                    names: names([KitKeys.literalNext]), valueName: nil,
                    help: "in a text field, type the next key as it is (the help key as a character)"
                ),
                ManPage.Entry(names: names(KitKeys.nextField), valueName: nil, help: "next field"),
                ManPage.Entry(names: names(KitKeys.previousField), valueName: nil, help: "previous field"),
                ManPage.Entry(
                    names: names(KitKeys.previousRow + KitKeys.nextRow + KitKeys.pageUp + KitKeys.pageDown + KitKeys.firstRow + KitKeys.lastRow),
                    valueName: nil, help: "move through a list or a chart"
                ),
                entry(.back),
                entry(.quitWhileTyping),
                ManPage.Entry(names: names([KitKeys.interrupt]), valueName: nil, help: "quit at once"),
                ManPage.Entry(names: names([KitKeys.suspend]), valueName: nil, help: "suspend to the shell"),
            ]),
        ]
        for screen in screenKeys where !screen.commands.isEmpty {
            blocks.append(.subsection(screen.title))
            blocks.append(.options(screen.commands.map(entry)))
        }
        return blocks
    }
}

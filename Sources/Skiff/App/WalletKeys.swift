import SkiffConfigFile
import TerminalUI

extension KeyMap where Command == SceneCommand {
    /// The one key map of the app, handed to the scenes through `AppDependencies.keys`.
    static var standard: WalletKeys {
        WalletKeys { command in
            switch command {
            case .submit: .init(.enter, "continue")
            case .retry: .init(.ctrl("r"), "retry")
            case .back: .init(.escape, "back")
            case .confirmSend: .init(.character("y"), "send the money")
            case .previousStep: .init(.backTab, "back to the form, as it was")
            case .refresh: .init(.character("r"), "refresh")
            case .search: .init(.character("/"), "search")
            case .toggleSpending: .init(.character("g"), "show or hide spending")
            case .addCard: .init(.character("a"), "add card")
            case .activateCard: .init(.character("v"), "activate card")
            case .openCards: .init(.character("c"), "cards")
            case .openNotifications: .init(.character("n"), "notifications")
            case .sendMoney: .init(.character("s"), "send money")
            case .topUp: .init(.character("t"), "top up")
            case .freezeCard: .init(.character("f"), "freeze or unfreeze card")
            case .removeCard: .init(.character("d"), "remove card")
            case .markRead: .init(.enter, "mark read")
            case .markAllRead: .init(.character("m"), "mark all read")
            case .createAccount: .init(.ctrl("n"), "create account")
            case .forgotPassword: .init(.ctrl("p"), "forgot password")
            case .logout: .init(.character("L"), "log out")
            case .quit: .init(.character("q"), "quit")
            case .logoutWhileTyping: .init(.ctrl("o"), "log out")
            case .quitWhileTyping: .init(.ctrl("q"), "quit")
            case .showPassword: .init(.ctrl("t"), "show password")
            }
        }
    }
}

extension KeyMap where Command == SceneCommand {
    /// The standard map with some commands given other keys (config.toml's `[keys]` table); their help stays.
    static func standard(overriding overrides: [SceneCommand: [Key]]) -> WalletKeys {
        let standard = WalletKeys.standard
        guard !overrides.isEmpty else { return standard }
        return WalletKeys { command in
            var entry = standard.entry(for: command)
            if let keys = overrides[command] { entry.keys = keys }
            return entry
        }
    }
}

extension SceneCommand {
    /// The command's name in config.toml's `[keys]` table: its case name with underscores (`send_money`).
    var settingName: String {
        String(describing: self).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }
}

/// The config file's words about keys, kept here with the map, the one place that spells keys.
extension CommandLineOptions {
    /// What a `[keys]` value must be, in words, with the key names the kit knows.
    static var keyExpectation: String {
        let named = ([Key.character(" ")] + Key.namedKeys).map(\.label).joined(separator: ", ")
        return "a key, or an array of keys: one character, \(named), \(Key.ctrl("a").label) to \(Key.ctrl("z").label), "
            + "or \(Key.function(1).label) to \(Key.function(12).label)"
    }

    /// An example config.toml, as the man page shows it.
    static var exampleConfiguration: String {
        let keys = WalletKeys.standard
        return """
            server = "https://wallet.example.com"
            ca_file = "/etc/ssl/private-ca.pem"
            lock_after = 600
            mouse = false

            [\(keysTable)]
            \(SceneCommand.sendMoney.settingName) = "\(Key.function(2).label)"
            \(SceneCommand.refresh.settingName) = [\(keys.keys(for: .refresh).map { ConfigValue.quoted($0.label) }.joined(separator: ", ")), "\(Key.function(5).label)"]
            """
    }

}

import Foundation

/// The bundled list of common passwords (`common-passwords.txt`: zxcvbn's password frequency list, MIT, filtered to
/// what `PasswordPolicy` would otherwise accept).
public enum CommonPasswords {
    /// Every entry of the list, lowercased; `#!comment:` lines are left out.
    public static func load() throws -> Set<String> {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return parse(try String(contentsOf: url, encoding: .utf8))
    }

    /// The entries of a list in `password.lst` form: one password a line, `#!comment:` lines skipped.
    public static func parse(_ text: String) -> Set<String> {
        var entries = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#!comment:") {
            entries.insert(line.lowercased())
        }
        return entries
    }
}

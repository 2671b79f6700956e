/// The release both programs report (`skiff --version`, `skiff-server --version`), beside the commit each binary
/// was built from (its own `BuildInfo.commit`, made at build time).
public enum SkiffVersion {
    public static let number = "0.1.0"

    /// The `--version` line of `program`: "skiff 0.1.0 (commit 0123456789ab)".
    public static func line(program: String, commit: String) -> String {
        "\(program) \(number) (commit \(commit))"
    }
}

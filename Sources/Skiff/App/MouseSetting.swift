/// Whether Skiff asks the terminal for mouse reports.
public enum MouseSetting {
    /// On unless `--no-mouse` was given or `SKIFF_NO_MOUSE` is set to anything but empty or `0`.
    public static func reportsMouse(noMouseFlag: Bool, environment: [String: String]) -> Bool {
        guard !noMouseFlag else { return false }
        let variable = environment["SKIFF_NO_MOUSE"] ?? ""
        return variable.isEmpty || variable == "0"
    }
}

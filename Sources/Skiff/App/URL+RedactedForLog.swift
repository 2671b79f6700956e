import Foundation

extension URL {
    /// The address without its user information (`https://user:secret@host` → `https://host`), for logs and
    /// screens: a password typed into `--server` is never written anywhere.
    public var redactedForLog: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false),
              components.user != nil || components.password != nil
        else { return absoluteString }
        components.user = nil
        components.password = nil
        return components.string ?? "\(scheme ?? "")://\(host ?? "")"
    }
}

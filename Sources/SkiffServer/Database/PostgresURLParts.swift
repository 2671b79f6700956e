/// A `postgres://` URL cut where libpq cuts it, before any reading of its parts: the scheme, the user information
/// (before the authority's last `@`), the comma-separated hosts (each `HOST[:PORT]`, an IPv6 address in brackets),
/// and the rest (`/DATABASE?QUERY`). A multi-host URL (`postgres://u@h1:5432,h2:5432/db`) is not a URL that
/// `URLComponents` reads, so this is the one place it is taken apart.
struct PostgresURLParts: Equatable {
    var scheme: String
    /// `USER` or `USER:PASSWORD`, still percent-encoded; nil when the URL has no `@`.
    var userInfo: String?
    /// Each host as written, with its port; one empty entry for a URL with no host (`postgres://u@/db?host=/run`).
    var hosts: [String]
    /// `/DATABASE?QUERY`, or empty.
    var rest: Substring

    init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        scheme = String(url[..<schemeEnd.lowerBound])
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        rest = afterScheme[authorityEnd...]
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[..<at])
            hosts = authority[authority.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        } else {
            userInfo = nil
            hosts = authority.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The URL with only `host`: what each host of a multi-host URL is read as.
    func url(forHost host: String) -> String {
        scheme + "://" + (userInfo.map { $0 + "@" } ?? "") + host + rest
    }

    /// The URL with any password (`USER:PASSWORD@`, or `password=` in the query) replaced by `***`.
    var redacted: String {
        let user = userInfo.map { info -> String in
            guard let colon = info.firstIndex(of: ":") else { return info + "@" }
            return info[..<colon] + ":***@"
        } ?? ""
        var tail = String(rest)
        if let questionMark = tail.firstIndex(of: "?") {
            let query = tail[tail.index(after: questionMark)...].split(separator: "&", omittingEmptySubsequences: false).map { item in
                item.lowercased().hasPrefix("password=") ? "password=***" : String(item)
            }
            tail = tail[..<questionMark] + "?" + query.joined(separator: "&")
        }
        return scheme + "://" + user + hosts.joined(separator: ",") + tail
    }
}

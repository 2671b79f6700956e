/// Search text inside a LIKE / ILIKE pattern; both stores declare `\` its escape character.
enum LikePattern {
    /// Escapes `%`, `_` and `\` so a search matches them literally.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for char in text {
            if char == "%" || char == "_" || char == "\\" { escaped.append("\\") }
            escaped.append(char)
        }
        return escaped
    }
}

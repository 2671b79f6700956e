import Foundation

/// `application/x-www-form-urlencoded` as Stripe's API takes it: every name and value with everything but letters,
/// digits and `-._~` percent-encoded. The wallet writes a card's tokenization with it, the server its calls to Stripe.
public enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `fields` in their order, as `name=value&…`.
    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escaped($0) + "=" + escaped($1) }.joined(separator: "&")
    }

    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

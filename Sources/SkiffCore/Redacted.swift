/// A value that holds a secret (a card number, a security code, a password, a one-time code, a token).
/// Printing it, interpolating it, `String(reflecting:)` and `dump` show only `redactedDescription`, and its
/// mirror has no children, so nothing that walks the value finds the secret either.
public protocol Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The parts that are safe to show; `"<redacted>"` unless the type says more.
    var redactedDescription: String { get }
}

extension Redacted {
    public var redactedDescription: String { "<redacted>" }
    public var description: String { redactedDescription }
    public var debugDescription: String { redactedDescription }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

import Foundation
import SkiffAPI

/// The contract's length and pattern for the string fields of its request bodies and for its `Idempotency-Key` header,
/// read from `openapi.yaml`: a value outside them breaks the schema, which the contract answers with 400, whatever rule
/// in words the field also has (422). The generated decoder checks types only, so a service (or, for the header,
/// `IdempotencyMiddleware`) asks here before its own rules.
enum ContractStrings {
    /// Each pattern of `SkiffContract.stringFacets` and of the `Idempotency-Key` header, compiled once.
    private static let patterns: [String: NSRegularExpression] = {
        var compiled: [String: NSRegularExpression] = [:]
        for facets in SkiffContract.stringFacets.values.flatMap(\.values) + [SkiffContract.idempotencyKeyFacets] {
            guard let pattern = facets.pattern, compiled[pattern] == nil else { continue }
            compiled[pattern] = compile(pattern)
        }
        return compiled
    }()

    private static func compile(_ pattern: String) -> NSRegularExpression {
        guard let expression = try? NSRegularExpression(pattern: pattern) else {
            preconditionFailure("openapi.yaml has a pattern NSRegularExpression cannot read: \(pattern)")
        }
        return expression
    }

    /// Why `value` does not fit what the schema `schema` asks of its property `field`, in a person's words; nil when
    /// it fits or the contract asks nothing of that field.
    static func problem(_ value: String, field: String, in schema: String) -> String? {
        guard let facets = SkiffContract.stringFacets[schema]?[field] else { return nil }
        return problem(value, facets)
    }

    /// Why `value` does not fit `facets` (the contract's patterns are compiled once, any other when asked), in a
    /// person's words; nil when it fits.
    static func problem(_ value: String, _ facets: StringFacets) -> String? {
        // JSON Schema counts a string's length in Unicode scalars.
        let length = value.unicodeScalars.count
        if let minimum = facets.minLength, length < minimum {
            return minimum == 1 ? "This field cannot be empty." : "This field takes at least \(minimum) characters."
        }
        if let maximum = facets.maxLength, length > maximum {
            return "This field takes at most \(maximum) characters."
        }
        if let pattern = facets.pattern {
            let expression = patterns[pattern] ?? compile(pattern)
            let whole = NSRange(value.startIndex..., in: value)
            let match = expression.firstMatch(in: value, range: whole)
            // ICU's `$` also matches before a last line break, ECMA-262's (JSON Schema's) only at the end.
            if match == nil || (pattern.hasSuffix("$") && match?.range.upperBound != whole.upperBound) {
                return facets.example.map { "This field is not in the expected form, such as \($0)." }
                    ?? "This field is not in the expected form."
            }
        }
        return nil
    }
}

extension FieldProblems {
    /// Adds `field` as a schema break when `value` is outside what the contract's `schema` asks of it; true when it
    /// is, so that the field's rules in words are not checked as well. A missing value asks nothing.
    @discardableResult
    mutating func contract(_ schema: String, _ field: String, _ value: String?) -> Bool {
        guard let value, let message = ContractStrings.problem(value, field: field, in: schema) else { return false }
        self.schema(field, message)
        return true
    }
}

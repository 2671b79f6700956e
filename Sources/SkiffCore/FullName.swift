/// A person's full name as given at registration.
public enum FullName {
    public static let maxLength = 100

    public enum Problem: Error, Hashable, Sendable {
        case empty
        case tooLong

        public var message: String {
            switch self {
            case .empty: "Enter your full name."
            case .tooLong: "Use at most \(FullName.maxLength) characters."
            }
        }
    }

    /// Trims spaces and checks the name is present and not too long; returns the trimmed name.
    public static func validate(_ raw: String) throws(Problem) -> String {
        let name = raw.trimmingSpaces()
        guard !name.isEmpty else { throw .empty }
        guard name.count <= maxLength else { throw .tooLong }
        return name
    }
}

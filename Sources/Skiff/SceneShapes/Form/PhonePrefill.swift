import SkiffCore

/// Opening a screen that starts from the number typed on Login: the same three shapes in Register and Forgot
/// password, which name it `Load`.
enum PhonePrefill {
    struct Request: Sendable {}
    struct Response: Sendable { var prefill: LastLogin? }
    struct ViewModel: Hashable, Sendable {
        var countryCode: String
        var phoneNumber: String
    }
}

extension Formatting {
    /// The number carried over from Login, `+1` when no country code was given.
    func phonePrefill(_ response: PhonePrefill.Response) -> PhonePrefill.ViewModel {
        PhonePrefill.ViewModel(
            countryCode: response.prefill.map { $0.countryCode.isEmpty ? "+1" : $0.countryCode } ?? "+1",
            phoneNumber: response.prefill?.phoneNumber ?? ""
        )
    }
}

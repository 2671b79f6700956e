import Foundation
import SkiffCore

/// The one-time codes the app's own server "texts" to its development outbox, so a development build can show
/// them beside the code field. Without an outbox (a remote server) there is never a code.
struct DevelopmentCodes {
    let outbox: (any DevelopmentOutboxReading)?
    let clock: SceneClock

    /// Notes the moment before a request that makes the server send a code to `e164`; read the code once the
    /// request succeeded. `margin` allows for the clock's granularity, or for a code sent just before.
    func expect(to e164: String, for purpose: CodePurpose, margin: Duration = .seconds(1)) -> ExpectedCode {
        let since = clock.now().addingTimeInterval(-Double(margin.components.seconds))
        return ExpectedCode(outbox: outbox, e164: e164, purpose: purpose, since: since)
    }

    /// A code asked for at a known moment.
    struct ExpectedCode: Sendable {
        fileprivate let outbox: (any DevelopmentOutboxReading)?
        fileprivate let e164: String
        fileprivate let purpose: CodePurpose
        fileprivate let since: Date

        /// The code sent since then, if the outbox has it.
        func read() -> String? {
            outbox?.latestCode(to: e164, purpose: purpose, since: since)
        }
    }
}

extension Formatting {
    /// `Development server: the code is 123456`, or nothing.
    func developmentBanner(code: String?) -> BannerMessage? {
        code.map { BannerMessage(.info, "Development server: the code is \($0)") }
    }
}

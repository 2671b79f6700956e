import Foundation
import SkiffCore

@MainActor
protocol HomePresentationLogic: AnyObject {
    func presentUpdate(response: Home.Update.Response)
}

/// Words Home's own lines: the banner (what failed, how fresh the data is, a notice) and whether it is busy.
@MainActor
final class HomePresenter: HomePresentationLogic, ScenePresentation {
    weak var viewController: (any HomeDisplayLogic)?
    private let formatting: Formatting
    private let keys: WalletKeys
    /// Presented again when the display blurs or clears (a notice names an amount).
    private var last: Home.Update.Response?

    init(formatting: Formatting = Formatting(), keys: WalletKeys = .standard) {
        self.formatting = formatting
        self.keys = keys
        formatting.privacy?.observe(self) { presenter in
            if let last = presenter.last { presenter.presentUpdate(response: last) }
        }
    }

    func presentUpdate(response: Home.Update.Response) {
        last = response
        let state = response.state
        viewController?.displayUpdate(viewModel: .init(
            banner: banner(state),
            isBusy: !state.loading.isEmpty || state.isLoggingOut,
            canActivateCard: state.cards.contains { $0.canBeActivated }
        ))
    }

    private func banner(_ state: Home.State) -> BannerMessage? {
        if let error = state.error, let text = formatting.message(for: error) {
            // Nothing to retry against: the message says what to do.
            if case .serverNotStarted = error { return BannerMessage(.error, text) }
            let retry = [KeyPrompt(.refresh, "retry")]
            guard let cachedAt = state.cachedAt else {
                if let problem = connectionProblem(error) { return BannerMessage(.error, problem, prompts: retry) }
                return BannerMessage(.error, text)
            }
            let offline = "Offline: showing data from \(formatting.dayAndTime(cachedAt))."
            return BannerMessage(.error, [offline, connectionProblem(error)].compactMap { $0 }.joined(separator: " "), prompts: retry)
        }
        if let notice = state.notice { return self.notice(notice) }
        if let cachedAt = state.cachedAt, !state.loading.isEmpty {
            return BannerMessage(.info, "Showing data from \(formatting.dayAndTime(cachedAt)) · refreshing…")
        }
        return nil
    }

    private func notice(_ notice: Home.State.Notice) -> BannerMessage {
        switch notice {
        case .cardAdded(let card): return BannerMessage(.info, "\(card.name) added.")
        case .cardActivated(let card): return BannerMessage(.info, "Your Skiff card \(card.masked) is active.")
        case .unfreezeCardFirst:
            let freeze = keys.label(for: .freezeCard), cards = keys.label(for: .openCards)
            return BannerMessage(.info, "Your Skiff card is frozen. Unfreeze it first (\(freeze) on Cards, \(cards) from Home).")
        case .cardAlreadyActive: return BannerMessage(.info, "Your Skiff card is already active.")
        case .noCardToActivate: return BannerMessage(.info, "There is no Skiff card to activate yet.")
        case .moneyReceived(let money, let from, let isTopUp):
            return BannerMessage(.info, formatting.moneyReceived(money, from: from, isTopUp: isTopUp))
        }
    }

    /// What went wrong with the connection, where trying again may help.
    private func connectionProblem(_ error: NetworkError) -> String? {
        switch error {
        case .unreachable: "Can't reach the server."
        case .connectionLost: "The connection to the server broke."
        case .timeout: "The server is slow to answer."
        default: nil
        }
    }
}

import SkiffCore

@MainActor
protocol BalancePresentationLogic: AnyObject {
    func presentUpdate(response: Balance.Update.Response)
}

/// Words the header: the name, the balance (blurred while the display is), the unread count, the connection.
@MainActor
final class BalancePresenter: BalancePresentationLogic, ScenePresentation {
    weak var viewController: (any BalanceDisplayLogic)?
    private let formatting: Formatting
    /// Presented again when the display blurs or clears.
    private var last: Balance.Update.Response?

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
        formatting.privacy?.observe(self) { presenter in
            if let last = presenter.last { presenter.presentUpdate(response: last) }
        }
    }

    /// Shown in the header while the live stream cannot reach the server.
    static let offline = "Offline"

    func presentUpdate(response: Balance.Update.Response) {
        last = response
        let state = response.state
        let unread = state.summary?.unreadNotifications ?? 0
        viewController?.displayUpdate(viewModel: .init(
            name: state.summary?.user.fullName ?? "",
            balance: "Balance " + (state.summary.map { formatting.amount($0.balance) } ?? "—"),
            unreadBadge: unread > 0 ? "\(unread) unread" : nil,
            connection: state.isOffline ? Self.offline : nil
        ))
    }
}

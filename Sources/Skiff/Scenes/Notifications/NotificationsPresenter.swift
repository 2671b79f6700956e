import SkiffCore

@MainActor
protocol NotificationsPresentationLogic: AnyObject {
    func presentUpdate(response: Notifications.Update.Response)
}

/// Words the notification list, and the one open in full.
@MainActor
final class NotificationsPresenter: NotificationsPresentationLogic, ScenePresentation {
    weak var viewController: (any NotificationsDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentUpdate(response: Notifications.Update.Response) {
        let state = response.state
        let unread = state.items.filter { !$0.read }.count
        viewController?.displayUpdate(viewModel: .init(
            rows: state.items.map {
                .init(title: ($0.read ? "  " : "● ") + $0.title, body: $0.body, date: formatting.dayAndTime($0.createdAt), isUnread: !$0.read)
            },
            opened: state.items.first { $0.id == state.openID }.map {
                .init(title: $0.title, date: formatting.dayAndTime($0.createdAt), body: $0.body)
            },
            summary: !state.hasLoaded ? "" : unread == 0 ? "All read" : unread == 1 ? "1 unread" : "\(unread) unread",
            emptyText: state.items.isEmpty
                ? (state.isLoading ? "Loading notifications…" : state.hasLoaded && state.error == nil ? "No notifications yet." : nil)
                : nil,
            banner: state.error.flatMap { formatting.message(for: $0) }.map {
                BannerMessage(.error, $0, prompts: [KeyPrompt(.refresh, "reload")])
            },
            isBusy: state.isLoading
        ))
    }
}

@testable import Skiff
import TerminalUI

extension SceneFactory {
    /// A factory over worker doubles, for tests that build scenes through a coordinator without the whole app.
    static func doubles(tasks: TaskTracker) -> SceneFactory {
        let dependencies = AppDependencies(
            auth: AuthWorkerDouble.succeeding, account: AccountWorkerDouble.succeeding, cards: CardWorkerDouble.succeeding,
            notifications: NotificationsWorkerDouble.succeeding,
            transfers: TransferWorkerDouble.succeeding, sessions: SessionStoreDouble(), preferences: PreferencesStoreDouble(),
            cache: CacheStoreDouble(), outbox: OutboxDouble(code: "482913"), tokens: SessionTokenBox(), demo: Seeds.demo,
            serverDescription: "127.0.0.1:8080", clock: .immediate(), formatting: Seeds.utc
        )
        return SceneFactory(dependencies: dependencies, tasks: tasks)
    }
}

import SkiffCore
import TerminalUI

@MainActor
protocol LockBusinessLogic: FormBusinessLogic where Field == Lock.Field, Form == Lock.Form {
    func engage(request: Lock.Engage.Request)
    func load(request: Lock.Load.Request)
    func validateField(request: Lock.ValidateField.Request)
    func submit(request: Lock.Submit.Request)
    func back(request: Lock.Back.Request)
    func logout(request: Lock.Logout.Request)
}

/// Where Lock sends the person next.
enum LockRoute: Sendable {
    /// The server accepted the password: show what was there.
    case unlocked
    /// The session was ended from the lock.
    case loggedOut
}

/// Holds the lock where it outlives the screen (the saved session and the server), checks the password with the
/// server (a wrong one counts toward the sign-in throttle there), or logs out.
@MainActor
final class LockInteractor: LockBusinessLogic {
    private let presenter: any LockPresentationLogic
    private let auth: any AuthWorking
    private let sessions: any SessionStoring
    /// Logs out.
    private let sessionWorker: SessionWorker
    private let userName: String
    private let reason: LockReason
    private let tasks: TaskTracker
    let request: RequestInFlight
    /// Telling the server of the lock; an unlock waits for it, so the lock can never land after the unlock.
    private var telling: Task<Void, Never>?
    var route: (LockRoute) -> Void = { _ in }

    init(
        presenter: any LockPresentationLogic, auth: any AuthWorking, sessions: any SessionStoring, cache: any CacheStoring,
        userName: String, reason: LockReason = .idle, tasks: TaskTracker
    ) {
        self.presenter = presenter
        self.auth = auth
        self.sessions = sessions
        sessionWorker = SessionWorker(auth: auth, sessions: sessions, cache: cache)
        self.userName = userName
        self.reason = reason
        self.tasks = tasks
        request = RequestInFlight(tasks: tasks)
    }

    /// Marks the saved session locked, so no later start shows Home without the password, then tells the server,
    /// which from then on refuses the token for anything but unlock and logout. Offline, the saved mark holds alone.
    func engage(request: Lock.Engage.Request) {
        try? sessions.setLocked(true)
        telling = tasks.run { [auth] in try? await auth.lock() }
    }

    func load(request: Lock.Load.Request) {
        presenter.presentLoad(response: .init(userName: userName, reason: reason))
    }

    func validateField(request: Lock.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: Self.problems(in: request.form)))
    }

    func submit(request: Lock.Submit.Request) {
        guard !self.request.isRunning,
              Lock.Submit.Response.passes(Self.problems(in: request.form), else: presenter.presentSubmit(response:))
        else { return }
        presenter.presentSubmit(response: .started)
        let password = request.form.password
        let telling = telling
        self.request.call({ [auth] () async throws(NetworkError) in
            await telling?.value
            try await auth.unlock(password: password)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                try? sessions.setLocked(false)
                route(.unlocked)
            case .failure(let error): presenter.presentSubmit(response: .refused(error))
            }
        })
    }

    func back(request: Lock.Back.Request) {
        self.request.cancel()
    }

    /// The app's own check: a password that is not empty. Whether it is right only the server says.
    static func problems(in form: Lock.Form) -> [Lock.Field: InputProblem] {
        form.password.isEmpty ? [.password: .password(.empty)] : [:]
    }

    func logout(request: Lock.Logout.Request) {
        self.request.abandon()
        presenter.presentLogout(response: .init())
        self.request.start({ [sessionWorker] in await sessionWorker.end() }, then: { [weak self] _ in
            self?.route(.loggedOut)
        })
    }
}

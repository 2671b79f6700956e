/// Ending the signed-in session, the one way every scene does it: the server revokes the token (if it can be
/// reached), and this device forgets the token and the data it cached for the user.
struct SessionWorker: Sendable {
    let auth: any AuthWorking
    let sessions: any SessionStoring
    let cache: any CacheStoring

    /// Logs out: asks the server to revoke the token, then forgets the session here whatever the server answered,
    /// so a person offline is still logged out.
    func end() async {
        try? await auth.logout()
        forget()
    }

    /// Forgets the session and the cache on this device only: for a session the server has already ended.
    func forget() {
        sessions.clear()
        cache.clear()
    }
}

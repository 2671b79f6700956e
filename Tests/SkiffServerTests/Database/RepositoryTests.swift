import Foundation
import SkiffCore
import Testing
@testable import SkiffServer

/// Every repository method, the races, and paging and search over thousands of rows, on each store.
@Suite("Repositories")
struct RepositoryTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("An account is created with its card, opening transaction and welcome; a taken number is a duplicate", arguments: TestStore.allCases)
    func accounts(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            #expect(try await store.isEmpty())
            let user = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            #expect(try await !store.isEmpty())
            #expect(try await repositories.accounts.user(id: "u1") == user)
            #expect(try await repositories.accounts.user(phone: "+12025550100") == user)
            #expect(try await repositories.accounts.user(id: "nobody") == nil)
            let other = try await makeUser(repositories, id: "u3", phone: "+12025550103")
            #expect(try await repositories.accounts.users(ids: ["u1", "nobody", "u3"]) == ["u1": user, "u3": other])
            #expect(try await repositories.accounts.users(ids: ["u1", "u1"]) == ["u1": user])
            #expect(try await repositories.accounts.users(ids: []).isEmpty)
            #expect(try await repositories.cards.cards(userID: "u1").map(\.kind) == [.issued])
            #expect(try await repositories.transactions.page(userID: "u1", after: nil, query: nil, limit: 10).count == 1)
            #expect(try await repositories.accounts.overview(id: "u1") == AccountOverview(user: user, unreadNotifications: 1))
            #expect(try await repositories.accounts.overview(id: "nobody") == nil)
            await #expect(throws: RepositoryError.duplicate) {
                try await makeUser(repositories, id: "u2", phone: "+12025550100")
            }
            #expect(try await repositories.accounts.user(id: "u2") == nil)
        }
    }

    @Test(
        "A password reset replaces the hash, revokes every open session and ends the replay of the user's other codes",
        arguments: TestStore.allCases
    )
    func resetPassword(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            try await repositories.sessions.create(session("a", userID: "u1"))
            try await repositories.sessions.create(session("b", userID: "u1", revokedAt: now))
            // The registration's code has the account's id; the resets' name their user.
            let codes: [(id: String, purpose: CodePurpose, userID: String?)] = [
                ("u1", .registration, nil), ("old-reset", .passwordReset, "u1"), ("this-reset", .passwordReset, "u1"),
                ("u2", .registration, nil), ("other-reset", .passwordReset, "u2"),
            ]
            for code in codes {
                var record = verification(code.id, phone: "+1202555\(code.id.count)", purpose: code.purpose)
                record.userID = code.userID
                _ = try await repositories.verifications.create(
                    record, address: "a", country: .plusOne, historySince: now, refusal: { _ in Bool?.none }
                )
                _ = try await repositories.verifications.attempt(
                    id: code.id, at: now, { _ in true }, isRight: { _ in true }, consumedBy: "request-\(code.id)"
                )
            }
            try await repositories.accounts.resetPassword(
                userID: "u1", passwordHash: "new-hash", at: now.addingTimeInterval(60), keepingReplayOf: "this-reset"
            )
            #expect(try await repositories.accounts.user(id: "u1")?.passwordHash == "new-hash")
            #expect(try await repositories.sessions.session(tokenHash: "a")?.revokedAt == now.addingTimeInterval(60))
            #expect(try await repositories.sessions.session(tokenHash: "b")?.revokedAt == now)
            var replayable: [String: String?] = [:]
            for code in codes { replayable[code.id] = try await repositories.verifications.verification(id: code.id)?.consumedBy }
            let expected: [String: String?] = [
                "u1": String?.none, "old-reset": String?.none, "this-reset": "request-this-reset", "u2": "request-u2",
                "other-reset": "request-other-reset",
            ]
            #expect(replayable == expected)
        }
    }

    @Test("Sessions are stored, touched forward only, and revoked once", arguments: TestStore.allCases)
    func sessions(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            let record = session("hash", userID: "u1")
            try await repositories.sessions.create(record)
            #expect(try await repositories.sessions.session(tokenHash: "hash") == record)
            #expect(try await repositories.sessions.session(tokenHash: "other") == nil)
            try await repositories.sessions.touch(tokenHash: "hash", at: now.addingTimeInterval(120))
            try await repositories.sessions.touch(tokenHash: "hash", at: now.addingTimeInterval(60))
            #expect(try await repositories.sessions.session(tokenHash: "hash")?.lastUsedAt == now.addingTimeInterval(120))
            try await repositories.sessions.revoke(tokenHash: "hash", at: now.addingTimeInterval(200))
            try await repositories.sessions.revoke(tokenHash: "hash", at: now.addingTimeInterval(300))
            #expect(try await repositories.sessions.session(tokenHash: "hash")?.revokedAt == now.addingTimeInterval(200))
        }
    }

    @Test("A session is locked once; an idle lock loses to a use written after its read; unlock writes a use", arguments: TestStore.allCases)
    func sessionLock(store: TestStore) async throws {
        try await store.withFresh { store in
            let sessions = store.repositories.sessions
            _ = try await makeUser(store.repositories, id: "u1", phone: "+12025550100")
            try await sessions.create(session("hash", userID: "u1"))
            #expect(try await sessions.session(tokenHash: "hash")?.lockedAt == nil)
            try await sessions.lock(tokenHash: "hash", at: now.addingTimeInterval(10), unusedSince: nil)
            try await sessions.lock(tokenHash: "hash", at: now.addingTimeInterval(20), unusedSince: nil)
            #expect(try await sessions.session(tokenHash: "hash")?.lockedAt == now.addingTimeInterval(10))

            try await sessions.unlock(tokenHash: "hash", at: now.addingTimeInterval(30))
            let unlocked = try #require(try await sessions.session(tokenHash: "hash"))
            #expect(unlocked.lockedAt == nil)
            #expect(unlocked.lastUsedAt == now.addingTimeInterval(30))

            // An idle lock decided on a read from before the unlock's use does nothing.
            try await sessions.lock(tokenHash: "hash", at: now.addingTimeInterval(400), unusedSince: now)
            #expect(try await sessions.session(tokenHash: "hash")?.lockedAt == nil)
            try await sessions.lock(tokenHash: "hash", at: now.addingTimeInterval(400), unusedSince: now.addingTimeInterval(30))
            #expect(try await sessions.session(tokenHash: "hash")?.lockedAt == now.addingTimeInterval(400))
        }
    }

    @Test("A code is stored unless its history refuses it; tries are counted, a right one consumes it", arguments: TestStore.allCases)
    func verifications(store: TestStore) async throws {
        try await store.withFresh { store in
            let codes = store.repositories.verifications
            let first = verification("v1", payload: Data([1, 2, 3]))
            let since = now.addingTimeInterval(-3600)
            #expect(try await codes.create(first, address: "203.0.113.1", country: .plusOne, historySince: since, refusal: { _ in Bool?.none }) == nil)
            #expect(try await codes.verification(id: "v1") == first)
            let refused = try await codes.create(
                verification("v2"), address: "198.51.100.9", country: .plusOne, historySince: since, refusal: { $0 }
            )
            #expect(refused == CodeIssueHistory(phone: [now], address: [], country: [now]))
            #expect(try await codes.verification(id: "v2") == nil)
            #expect(try await codes.issueHistory(
                phone: first.phone, purpose: first.purpose, address: "203.0.113.1", country: .plusOne, since: since
            ) == CodeIssueHistory(phone: [now], address: [now], country: [now]))
            #expect(try await codes.issueHistory(
                phone: "+12025550199", purpose: first.purpose, address: "203.0.113.1", country: .plusOne, since: since
            ) == CodeIssueHistory(phone: [], address: [now], country: [now]))
            let fromNow = CountryCodeWindow(countryCode: "1", since: now, newest: 10)
            #expect(try await codes.issueHistory(
                phone: first.phone, purpose: first.purpose, address: "203.0.113.1", country: fromNow, since: now
            ) == CodeIssueHistory(phone: [], address: [], country: []))
            // Anonymous purposes have caps of their own: a card activation code does not count against them.
            #expect(try await codes.issueHistory(
                phone: first.phone, purpose: .passwordReset, address: "203.0.113.1", country: .plusOne, since: since
            ) == CodeIssueHistory(phone: [], address: [now], country: [now]))

            let usable: @Sendable (VerificationRecord) -> Bool = { $0.consumedAt == nil && $0.attempts < 5 }
            #expect(try await codes.attempt(id: "v1", at: now, usable, isRight: { _ in false }) == .wrong(attempts: 1))
            let accepted = try await codes.attempt(
                id: "v1", at: now.addingTimeInterval(5), usable, isRight: { _ in true }, consumedBy: "replay-key-hash"
            )
            #expect(accepted == .accepted(VerificationRecord(
                id: "v1", phone: first.phone, purpose: first.purpose, codeHash: first.codeHash, userID: nil, subject: "card",
                payload: Data([1, 2, 3]), createdAt: now, expiresAt: first.expiresAt, attempts: 1, consumedAt: nil
            )))
            #expect(try await codes.verification(id: "v1")?.consumedAt == now.addingTimeInterval(5))
            #expect(try await codes.verification(id: "v1")?.consumedBy == "replay-key-hash")
            #expect(try await codes.attempt(id: "v1", at: now, usable, isRight: { _ in true }) == .unusable)
            #expect(try await codes.attempt(id: "missing", at: now, usable, isRight: { _ in true }) == .unusable)

            // A used code: its replay changes nothing; a replay miss counts on the code and on its number.
            let later = now.addingTimeInterval(20)
            let consumed = try #require(try await codes.verification(id: "v1"))
            let replayed = try await codes.attempt(
                id: "v1", at: later, failuresSince: now.addingTimeInterval(-1), pause: { _ in nil }, judge: { _ in .replay },
                consumedBy: "replay-key-hash"
            )
            #expect(replayed == .replayed(consumed))
            let missed = try await codes.attempt(
                id: "v1", at: later, failuresSince: now.addingTimeInterval(-1), pause: { _ in nil }, judge: { _ in .wrong },
                consumedBy: "another-request"
            )
            #expect(missed == .replayMissed(attempts: 2))
            #expect(try await codes.verification(id: "v1")?.attempts == 2)
            #expect(try await codes.verification(id: "v1")?.consumedBy == "replay-key-hash")
            let paused = try await codes.attempt(
                id: "v1", at: later, failuresSince: now.addingTimeInterval(-1), pause: { $0 == [now, later] ? later : nil },
                judge: { _ in .replay }, consumedBy: "replay-key-hash"
            )
            #expect(paused == .paused(until: later))
        }
    }

    @Test("A purge deletes, in batches, what no rule reads any more, and keeps what one still does", arguments: TestStore.allCases)
    func purge(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            let codes = repositories.verifications
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            let purgeAt = now.addingTimeInterval(2 * 86_400)
            let hourBefore = purgeAt.addingTimeInterval(-3600)

            // Codes: two from two days before go; one still counted by the caps' 24 h and one still replayable stay.
            var replayable = verification("replayable", phone: "+12025550104", createdAt: purgeAt.addingTimeInterval(-25 * 3600))
            replayable.expiresAt = purgeAt.addingTimeInterval(-22 * 3600)
            for record in [
                verification("old", phone: "+12025550101"), verification("old-used", phone: "+12025550102"),
                verification("counted", phone: "+12025550103", createdAt: purgeAt.addingTimeInterval(-23 * 3600)), replayable,
            ] {
                _ = try await codes.create(record, address: "a", country: .plusOne, historySince: now, refusal: { _ in Bool?.none })
            }
            _ = try await codes.attempt(id: "old-used", at: now.addingTimeInterval(5), { _ in true }, isRight: { _ in true })
            _ = try await codes.attempt(
                id: "replayable", at: purgeAt.addingTimeInterval(-23 * 3600), { _ in true }, isRight: { _ in true },
                consumedBy: "request"
            )
            // Wrong tries: one two days old goes, one an hour old stays.
            _ = try await codes.attempt(id: "old", at: now, { _ in true }, isRight: { _ in false })
            _ = try await codes.attempt(id: "counted", at: hourBefore, { _ in true }, isRight: { _ in false })

            // Failure counts: an old one goes; one paused past the purge and a recent one stay.
            let throttle = repositories.loginThrottle
            _ = try await throttle.beginAttempt(phone: "+12025550101", at: now) { _ in nil }
            _ = try await throttle.beginAttempt(phone: "+12025550102", at: now) { _ in purgeAt.addingTimeInterval(60) }
            _ = try await throttle.beginAttempt(phone: "+12025550103", at: hourBefore) { _ in nil }

            // Sessions: one that expired and one revoked two days before go; a live one and one ended an hour ago stay.
            let sessions: [SessionRecord] = [
                session("expired", userID: "u1"),
                SessionRecord(
                    tokenHash: "revoked", userID: "u1", createdAt: now, lastUsedAt: now, expiresAt: purgeAt.addingTimeInterval(3600),
                    revokedAt: now.addingTimeInterval(60)
                ),
                SessionRecord(
                    tokenHash: "live", userID: "u1", createdAt: hourBefore, lastUsedAt: hourBefore,
                    expiresAt: purgeAt.addingTimeInterval(11 * 3600), revokedAt: nil
                ),
                SessionRecord(
                    tokenHash: "just-ended", userID: "u1", createdAt: purgeAt.addingTimeInterval(-13 * 3600),
                    lastUsedAt: hourBefore, expiresAt: hourBefore, revokedAt: nil
                ),
            ]
            for record in sessions { try await repositories.sessions.create(record) }

            // Idempotency keys: one from two days before goes, one an hour old stays.
            // (`begin` itself clears what it finds expired: these clear nothing.)
            for (key, date) in [("old", now), ("recent", hourBefore)] {
                _ = try await repositories.idempotency.begin(
                    scope: "u1", key: key, requestHash: "hash", at: date, expiredBefore: now.addingTimeInterval(-1),
                    abandonedBefore: now.addingTimeInterval(-1)
                )
            }

            // Step-up proofs and recipient lookups: one from two days before goes, one from an hour before the purge
            // (the lookups' window) less a minute stays.
            for (token, date) in [("old", now), ("recent", purgeAt.addingTimeInterval(-3540))] {
                try await repositories.ledger.createStepUp(StepUpRecord(
                    tokenHash: token, sessionTokenHash: "s", userID: "u1", payeeUserID: "u2", amountMinor: 20_000, createdAt: date,
                    expiresAt: date.addingTimeInterval(300)
                ))
                _ = try await repositories.rateWindows.take(scope: "recipients:u1", at: date, since: date, limit: 30)
            }

            let cutoffs = PurgeService.cutoffs(at: purgeAt, limits: SkiffServerLimits())
            let counts = try await store.purge(cutoffs, batchSize: 1)
            #expect(counts == PurgeCounts(
                verifications: 2, codeFailures: 1, loginThrottle: 1, sessions: 2, idempotencyKeys: 1, stepUps: 1, rateEvents: 1
            ))
            #expect(try await store.purge(cutoffs, batchSize: 1000) == PurgeCounts())

            for (id, kept) in [("old", false), ("old-used", false), ("counted", true), ("replayable", true)] {
                #expect((try await codes.verification(id: id) != nil) == kept, "\(id)")
            }
            #expect(try await codes.verification(id: "replayable")?.consumedBy == "request")
            let noCountry = CountryCodeWindow(countryCode: "44", since: .distantPast, newest: 10)
            #expect(try await codes.issueHistory(
                phone: "+12025550103", purpose: .cardActivation, address: "a", country: noCountry, since: now
            ) == CodeIssueHistory(phone: [purgeAt.addingTimeInterval(-23 * 3600)], address: [
                    purgeAt.addingTimeInterval(-25 * 3600), purgeAt.addingTimeInterval(-23 * 3600),
                ]))
            for (hash, kept) in [("expired", false), ("revoked", false), ("live", true), ("just-ended", true)] {
                #expect((try await repositories.sessions.session(tokenHash: hash) != nil) == kept, "\(hash)")
            }
            let stillPaused = try await throttle.beginAttempt(phone: "+12025550102", at: purgeAt) { _ in nil }
            #expect(stillPaused == purgeAt.addingTimeInterval(60))
            let recent = try await repositories.idempotency.begin(
                scope: "u1", key: "recent", requestHash: "hash", at: purgeAt, expiredBefore: purgeAt.addingTimeInterval(-86_400),
                abandonedBefore: purgeAt.addingTimeInterval(-7200)
            )
            #expect(recent == .inFlight)
        }
    }

    @Test("A code's history holds the newest codes of its country code within the window, oldest first", arguments: TestStore.allCases)
    func countryHistory(store: TestStore) async throws {
        try await store.withFresh { store in
            let codes = store.repositories.verifications
            for (index, country) in ["1", "1", "44", "1", "1"].enumerated() {
                let record = VerificationRecord(
                    id: "c\(index)", phone: "+\(country)20255501\(index)", purpose: .registration, codeHash: "h", userID: nil,
                    subject: nil, payload: nil, createdAt: now.addingTimeInterval(Double(index)),
                    expiresAt: now.addingTimeInterval(600), attempts: 0, consumedAt: nil
                )
                let window = CountryCodeWindow(countryCode: country, since: .distantPast, newest: 100)
                #expect(try await codes.create(record, address: "a\(index)", country: window, historySince: now, refusal: { _ in Bool?.none }) == nil)
            }
            let window = CountryCodeWindow(countryCode: "1", since: now.addingTimeInterval(0.5), newest: 2)
            let history = try await codes.issueHistory(phone: "+1", purpose: .registration, address: "b", country: window, since: now)
            #expect(history.country == [now.addingTimeInterval(3), now.addingTimeInterval(4)])
            let all = CountryCodeWindow(countryCode: "1", since: now.addingTimeInterval(-1), newest: 10)
            #expect(try await codes.issueHistory(phone: "+1", purpose: .registration, address: "b", country: all, since: now).country.count == 4)
            let uk = CountryCodeWindow(countryCode: "44", since: now.addingTimeInterval(-1), newest: 10)
            #expect(try await codes.issueHistory(phone: "+1", purpose: .registration, address: "b", country: uk, since: now).country == [now.addingTimeInterval(2)])
        }
    }

    @Test("A new code ends the unused earlier codes of its number and purpose, and no others", arguments: TestStore.allCases)
    func newCodeEndsEarlierOnes(store: TestStore) async throws {
        try await store.withFresh { store in
            let codes = store.repositories.verifications
            let since = now.addingTimeInterval(-3600)
            let later = now.addingTimeInterval(60)
            _ = try await codes.create(verification("used"), address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none })
            _ = try await codes.attempt(id: "used", at: now, { _ in true }, isRight: { _ in true })
            for record in [
                verification("old"), verification("reset", purpose: .passwordReset), verification("other-number", phone: "+12025550199"),
            ] {
                #expect(try await codes.create(record, address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none }) == nil)
            }
            let new = verification("new", createdAt: later)
            #expect(try await codes.create(new, address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none }) == nil)

            #expect(try await codes.verification(id: "old")?.expiresAt == later)
            #expect(try await codes.verification(id: "used")?.expiresAt == now.addingTimeInterval(600))
            #expect(try await codes.verification(id: "reset")?.expiresAt == now.addingTimeInterval(600))
            #expect(try await codes.verification(id: "other-number")?.expiresAt == now.addingTimeInterval(600))
            #expect(try await codes.verification(id: "new") == new)
        }
    }

    @Test("Wrong tries are kept per number across the codes anyone can ask for, apart from its signed-in owner's, and a pause stops the check", arguments: TestStore.allCases)
    func wrongTriesPerNumber(store: TestStore) async throws {
        try await store.withFresh { store in
            let codes = store.repositories.verifications
            let since = now.addingTimeInterval(-3600)
            _ = try await codes.create(
                verification("v1", purpose: .registration), address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none }
            )
            _ = try await codes.create(
                verification("v2", purpose: .passwordReset), address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none }
            )
            _ = try await codes.create(
                verification("elsewhere", phone: "+12025550199"), address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none }
            )
            _ = try await codes.create(verification("owner"), address: "a", country: .plusOne, historySince: since, refusal: { _ in Bool?.none })
            let tenLater = now.addingTimeInterval(10)
            #expect(try await codes.attempt(id: "v1", at: now, { _ in true }, isRight: { _ in false }) == .wrong(attempts: 1))
            #expect(try await codes.attempt(id: "v2", at: tenLater, { _ in true }, isRight: { _ in false }) == .wrong(attempts: 1))

            let start = now
            let seen = try await codes.attempt(
                id: "v1", at: tenLater, failuresSince: since,
                pause: { $0 == [start, tenLater] ? tenLater.addingTimeInterval(86_400) : nil },
                judge: { _ in .right }, consumedBy: nil
            )
            #expect(seen == .paused(until: tenLater.addingTimeInterval(86_400)))
            #expect(try await codes.verification(id: "v1")?.consumedAt == nil)
            let recent = try await codes.attempt(
                id: "v1", at: tenLater, failuresSince: now, pause: { $0 == [tenLater] ? tenLater : nil },
                judge: { _ in .right }, consumedBy: nil
            )
            #expect(recent == .paused(until: tenLater))
            let otherNumber = try await codes.attempt(
                id: "elsewhere", at: tenLater, failuresSince: since, pause: { $0.isEmpty ? nil : tenLater },
                judge: { _ in .right }, consumedBy: nil
            )
            #expect(otherNumber != .paused(until: tenLater))
            // The signed-in owner's code (card activation) counts apart: the number's wrong tries do not pause it.
            let owners = try await codes.attempt(
                id: "owner", at: tenLater, failuresSince: since, pause: { $0.isEmpty ? nil : tenLater },
                judge: { _ in .right }, consumedBy: nil
            )
            #expect(owners != .paused(until: tenLater))
        }
    }

    @Test("Parallel requests for codes cannot pass a cap per number or per address", arguments: TestStore.allCases)
    func parallelCodeCaps(store: TestStore) async throws {
        try await store.withFresh { store in
            let codes = store.repositories.verifications
            let since = now.addingTimeInterval(-3600)
            let date = now
            let samePhone = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let record = VerificationRecord(
                            id: "p\(index)", phone: "+12025550100", purpose: .registration, codeHash: "h", userID: nil,
                            subject: nil, payload: nil, createdAt: date, expiresAt: date.addingTimeInterval(600), attempts: 0,
                            consumedAt: nil
                        )
                        let refused = try await codes.create(
                            record, address: "address-\(index)", country: .plusOne, historySince: since, refusal: { $0.phone.count >= 5 ? true : nil }
                        )
                        return refused == nil
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(samePhone == 5)
            let sameAddress = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        let record = VerificationRecord(
                            id: "a\(index)", phone: "+1202555\(1000 + index)", purpose: .registration, codeHash: "h", userID: nil,
                            subject: nil, payload: nil, createdAt: date, expiresAt: date.addingTimeInterval(600), attempts: 0,
                            consumedAt: nil
                        )
                        let refused = try await codes.create(
                            record, address: "203.0.113.7", country: .plusOne, historySince: since, refusal: { $0.address.count >= 20 ? true : nil }
                        )
                        return refused == nil
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(sameAddress == 20)
        }
    }

    @Test("Parallel guesses at one code are counted one by one and stop at the limit of 5", arguments: TestStore.allCases)
    func parallelCodeGuesses(store: TestStore) async throws {
        try await store.withFresh { store in
            let codes = store.repositories.verifications
            _ = try await codes.create(
                verification("v1"), address: "a", country: .plusOne, historySince: now.addingTimeInterval(-30), refusal: { _ in Bool?.none }
            )
            let date = now
            let outcomes = try await withThrowingTaskGroup(of: CodeAttempt.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await codes.attempt(
                            id: "v1", at: date, { $0.consumedAt == nil && $0.attempts < 5 }, isRight: { _ in false }
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let wrong = outcomes.compactMap { outcome -> Int? in
                if case .wrong(let attempts) = outcome { return attempts }
                return nil
            }
            #expect(wrong.sorted() == [1, 2, 3, 4, 5])
            #expect(outcomes.filter { $0 == .unusable }.count == 35)
            #expect(try await codes.verification(id: "v1")?.attempts == 5)
        }
    }

    @Test("Failed sign-ins are counted until the pause, which holds until it ends; a reset clears them", arguments: TestStore.allCases)
    func loginThrottle(store: TestStore) async throws {
        try await store.withFresh { store in
            let throttle = store.repositories.loginThrottle
            let pauseEnd = now.addingTimeInterval(60)
            let lockout: @Sendable (Int) -> Date? = { $0 >= 3 ? pauseEnd : nil }
            for _ in 0..<3 {
                #expect(try await throttle.beginAttempt(phone: "+12025550100", at: now, lockout: lockout) == nil)
            }
            #expect(try await throttle.beginAttempt(phone: "+12025550100", at: now, lockout: lockout) == pauseEnd)
            #expect(try await throttle.beginAttempt(phone: "+12025550199", at: now, lockout: lockout) == nil)
            #expect(try await throttle.beginAttempt(phone: "+12025550100", at: pauseEnd, lockout: lockout) == nil)
            try await throttle.reset(phone: "+12025550100")
            #expect(try await throttle.beginAttempt(phone: "+12025550100", at: now, lockout: lockout) == nil)
        }
    }

    @Test("Parallel sign-ins on one number are all counted: exactly 5 get through before the pause", arguments: TestStore.allCases)
    func parallelLogins(store: TestStore) async throws {
        try await store.withFresh { store in
            let throttle = store.repositories.loginThrottle
            let date = now
            let pauseEnd = now.addingTimeInterval(900)
            let results = try await withThrowingTaskGroup(of: Date?.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        try await throttle.beginAttempt(phone: "+12025550100", at: date, lockout: { $0 >= 5 ? pauseEnd : nil })
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == nil }.count == 5)
            #expect(results.filter { $0 == pauseEnd }.count == 25)
        }
    }

    @Test("Cards: the issued one first, a user's own only, one account per external card's fingerprint, status and removal", arguments: TestStore.allCases)
    func cards(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            let external = card("c1", userID: "u1", fingerprint: "fp-visa", createdAt: now.addingTimeInterval(-500))
            let added = NotificationRecord(id: "n-added", userID: "u1", title: "Card added", body: "", createdAt: now, readAt: nil)
            try await repositories.cards.insert(external, announcing: added)
            #expect(try await repositories.cards.cards(userID: "u1").map(\.kind) == [.issued, .external])
            #expect(try await repositories.cards.card(id: "c1", userID: "u1") == external)
            #expect(try await repositories.cards.card(id: "c1", userID: "u2") == nil)
            #expect(try await repositories.notifications.notifications(userID: "u1", limit: 10).map(\.id).contains("n-added"))
            // A duplicate writes neither the card nor its notification: both are one transaction.
            let again = NotificationRecord(id: "n-again", userID: "u1", title: "Card added", body: "", createdAt: now, readAt: nil)
            await #expect(throws: RepositoryError.duplicate) {
                try await repositories.cards.insert(card("c2", userID: "u1", fingerprint: "fp-visa", createdAt: now), announcing: again)
            }
            #expect(try await !repositories.notifications.notifications(userID: "u1", limit: 10).map(\.id).contains("n-again"))
            // One account per card: the same card on another account is a duplicate too, and its owner is known.
            await #expect(throws: RepositoryError.duplicate) {
                try await repositories.cards.insert(card("c3", userID: "u2", fingerprint: "fp-visa", createdAt: now), announcing: nil)
            }
            #expect(try await repositories.cards.owner(ofExternalCard: "fp-visa") == "u1")
            #expect(try await repositories.cards.owner(ofExternalCard: "fp-other") == nil)
            // An issued card is not an external card: it has no owner as one, and takes nothing's place.
            #expect(try await repositories.cards.owner(ofExternalCard: "issued-u2") == nil)
            try await repositories.cards.insert(card("c4", userID: "u1", fingerprint: "issued-u2", createdAt: now), announcing: nil)
            try await repositories.cards.setStatus(.inactive, cardID: "c1", userID: "u2")
            #expect(try await repositories.cards.card(id: "c1", userID: "u1")?.status == .active)
            try await repositories.cards.setStatus(.inactive, cardID: "c1", userID: "u1")
            #expect(try await repositories.cards.card(id: "c1", userID: "u1")?.status == .inactive)
            try await repositories.cards.delete(id: "c1", userID: "u2")
            #expect(try await repositories.cards.card(id: "c1", userID: "u1") != nil)
            try await repositories.cards.delete(id: "c1", userID: "u1")
            #expect(try await repositories.cards.card(id: "c1", userID: "u1") == nil)
            // Removed from the first account, it can go on another, its network id kept with it.
            var moved = card("c3", userID: "u2", fingerprint: "fp-visa", createdAt: now)
            moved.networkCardID = "card_123"
            try await repositories.cards.insert(moved, announcing: nil)
            #expect(try await repositories.cards.owner(ofExternalCard: "fp-visa") == "u2")
            #expect(try await repositories.cards.card(id: "c3", userID: "u2") == moved)
        }
    }

    @Test("Each user's customer at a card network is kept once per network: the first kept stays, whoever keeps one after", arguments: TestStore.allCases)
    func networkCustomers(store: TestStore) async throws {
        try await store.withFresh { store in
            let cards = store.repositories.cards
            _ = try await makeUser(store.repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(store.repositories, id: "u2", phone: "+12025550101")
            #expect(try await cards.customer(userID: "u1", network: "stripe") == nil)
            #expect(try await cards.keepCustomer("cus_first", userID: "u1", network: "stripe") == "cus_first")
            #expect(try await cards.keepCustomer("cus_second", userID: "u1", network: "stripe") == "cus_first")
            #expect(try await cards.customer(userID: "u1", network: "stripe") == "cus_first")
            #expect(try await cards.customer(userID: "u1", network: "simulated") == nil)
            #expect(try await cards.keepCustomer("cus_sim_u1", userID: "u1", network: "simulated") == "cus_sim_u1")
            let kept = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask { try await cards.keepCustomer("cus_\(index)", userID: "u2", network: "stripe") }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(kept.count == 1)
            #expect(try await cards.customer(userID: "u2", network: "stripe") == kept.first)
        }
    }

    @Test("Cards: freezing is the owner's only, stored apart from the status, and setting it twice changes nothing", arguments: TestStore.allCases)
    func cardFreeze(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            var frozenAtBirth = card("c2", userID: "u1", fingerprint: "fp-frozen", createdAt: now)
            frozenAtBirth.frozen = true
            try await repositories.cards.insert(frozenAtBirth, announcing: nil)
            #expect(try await repositories.cards.card(id: "c2", userID: "u1") == frozenAtBirth)
            try await repositories.cards.insert(card("c1", userID: "u1", fingerprint: "fp-visa", createdAt: now), announcing: nil)
            #expect(try await repositories.cards.card(id: "c1", userID: "u1")?.frozen == false)
            try await repositories.cards.setFrozen(true, cardID: "c1", userID: "u2")
            #expect(try await repositories.cards.card(id: "c1", userID: "u1")?.frozen == false)
            try await repositories.cards.setFrozen(true, cardID: "c1", userID: "u1")
            try await repositories.cards.setFrozen(true, cardID: "c1", userID: "u1")
            let frozen = try await repositories.cards.card(id: "c1", userID: "u1")
            #expect(frozen?.frozen == true)
            #expect(frozen?.status == .active)
            #expect(try await repositories.cards.cards(userID: "u1").map(\.frozen) == [false, true, true])
            try await repositories.cards.setFrozen(false, cardID: "c1", userID: "u1")
            #expect(try await repositories.cards.card(id: "c1", userID: "u1")?.frozen == false)
        }
    }

    @Test("Parallel inserts of one card store it once; the rest are duplicates", arguments: TestStore.allCases)
    func parallelCardInserts(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            let date = now
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await repositories.cards.insert(card("c\(index)", userID: "u1", fingerprint: "fp", createdAt: date), announcing: nil)
                            return true
                        } catch RepositoryError.duplicate {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await repositories.cards.cards(userID: "u1").count == 2)
        }
    }

    @Test("An Idempotency-Key is reserved once, replayed when complete, refused with another body, and freed", arguments: TestStore.allCases)
    func idempotency(store: TestStore) async throws {
        try await store.withFresh { store in
            let keys = store.repositories.idempotency
            func begin(_ key: String, hash: String = "h1", at date: Date? = nil) async throws -> IdempotencyBegin {
                let date = date ?? now
                return try await keys.begin(
                    scope: "u1", key: key, requestHash: hash, at: date, expiredBefore: date.addingTimeInterval(-86_400),
                    abandonedBefore: date.addingTimeInterval(-300)
                )
            }
            #expect(try await begin("k1") == .started)
            #expect(try await begin("k1") == .inFlight)
            #expect(try await begin("k1", hash: "h2") == .mismatch)
            let response = StoredResponse(status: 201, contentType: "application/json", location: "/v1/cards/c1", body: Data("{}".utf8))
            try await keys.complete(scope: "u1", key: "k1", response: response)
            #expect(try await begin("k1") == .completed(response))
            #expect(try await keys.begin(
                scope: "u2", key: "k1", requestHash: "h1", at: now, expiredBefore: now, abandonedBefore: now
            ) == .started)
            #expect(try await begin("k1", at: now.addingTimeInterval(86_401)) == .started)

            #expect(try await begin("k2") == .started)
            try await keys.abandon(scope: "u1", key: "k2")
            #expect(try await begin("k2") == .started)
            #expect(try await begin("k2", at: now.addingTimeInterval(301)) == .started)
        }
    }

    @Test("Parallel requests with one Idempotency-Key: exactly one reserves it", arguments: TestStore.allCases)
    func parallelReservations(store: TestStore) async throws {
        try await store.withFresh { store in
            let keys = store.repositories.idempotency
            let date = now
            let outcomes = try await withThrowingTaskGroup(of: IdempotencyBegin.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        try await keys.begin(
                            scope: "u1", key: "add-card", requestHash: "h", at: date,
                            expiredBefore: date.addingTimeInterval(-86_400), abandonedBefore: date.addingTimeInterval(-300)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .started }.count == 1)
            #expect(outcomes.filter { $0 == .inFlight }.count == 29)
        }
    }

    @Test("Thousands of transactions page newest first with keyset cursors, nothing skipped or repeated", arguments: TestStore.allCases)
    func paging(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            let start = now
            // Pairs share a timestamp, so the id decides their order.
            try await repositories.transactions.insert(userID: "u1", count: 3_000) { index in
                NewTransaction(
                    amountMinor: Int64(-index), currency: "USD", merchant: index % 3 == 0 ? "Corner Café" : "Book Shop",
                    category: index % 3 == 0 ? "Coffee" : "Books", createdAt: start.addingTimeInterval(-Double(index / 2))
                )
            }
            try await repositories.transactions.insert(userID: "u2", count: 10) { _ in
                NewTransaction(amountMinor: 1, currency: "USD", merchant: "Corner Café", category: "Coffee", createdAt: start)
            }
            var seen: [TransactionRecord] = []
            var cursor: TransactionCursor?
            while true {
                let page = try await repositories.transactions.page(userID: "u1", after: cursor, query: nil, limit: 250)
                seen += page
                guard page.count == 250, let last = page.last else { break }
                cursor = TransactionCursor(createdAt: last.createdAt.millisecondsSince1970, id: last.id)
            }
            #expect(seen.count == 3_001)
            #expect(Set(seen.map(\.id)).count == 3_001)
            #expect(seen.allSatisfy { $0.userID == "u1" })
            let keys = seen.map { ($0.createdAt.millisecondsSince1970, $0.id) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 })
        }
    }

    @Test("Search matches merchant or category in any case, takes wildcards literally, and pages", arguments: TestStore.allCases)
    func search(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            let start = now
            try await repositories.transactions.insert(userID: "u1", count: 3_000) { index in
                let merchant = index % 100 == 0 ? "50% Off_Store" : (index % 3 == 0 ? "Corner Cafe" : "Book Shop")
                return NewTransaction(
                    amountMinor: -100, currency: "USD", merchant: merchant, category: index % 3 == 0 ? "Coffee" : "Books",
                    createdAt: start.addingTimeInterval(-Double(index))
                )
            }
            func all(_ query: String) async throws -> [TransactionRecord] {
                var found: [TransactionRecord] = []
                var cursor: TransactionCursor?
                while true {
                    let page = try await repositories.transactions.page(userID: "u1", after: cursor, query: query, limit: 200)
                    found += page
                    guard page.count == 200, let last = page.last else { return found }
                    cursor = TransactionCursor(createdAt: last.createdAt.millisecondsSince1970, id: last.id)
                }
            }
            #expect(try await all("coffee").count == 1_000)
            #expect(try await all("CORNER").count == 990)
            #expect(try await all("50%").count == 30)
            #expect(try await all("_").count == 30)
            #expect(try await all("%").count == 30)
            #expect(try await all("nothing like it").isEmpty)
        }
    }

    @Test("A search shorter than the index's trigrams looks at the newest transactions only; a longer one at all", arguments: TestStore.allCases)
    func shortSearchWindow(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            let start = now
            let count = TransactionSearch.shortQueryWindow + 5
            // The five oldest are the only "Zq Kiosk" rows: past the short window, and rarer than the near walk.
            try await repositories.transactions.insert(userID: "u1", count: count) { index in
                NewTransaction(
                    amountMinor: -100, currency: "USD", merchant: index >= count - 5 ? "Zq Kiosk" : "Book Shop",
                    category: "Books", createdAt: start.addingTimeInterval(-Double(index))
                )
            }
            let page = { (query: String) in
                try await repositories.transactions.page(userID: "u1", after: nil, query: query, limit: 50)
            }
            #expect(try await page("zq").isEmpty)
            #expect(try await page("zq ").count == 5)
            #expect(try await page("Kiosk").map(\.merchant) == Array(repeating: "Zq Kiosk", count: 5))
            #expect(try await page("bo").count == 50)
            #expect(try await repositories.transactions.count(userID: "u1", upTo: 100) == 100)
            // The account's opening balance is one more.
            #expect(try await repositories.transactions.count(userID: "u1", upTo: count + 10) == count + 1)
            #expect(try await repositories.transactions.count(userID: "u2", upTo: 100) == 0)
        }
    }

    @Test("Search text is never read as index syntax, and the index keeps to each user's rows", arguments: TestStore.allCases)
    func searchSyntaxAndDeletion(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            let start = now
            let merchants = [#"Say "Cheese" Deli"#, "NEAR(a b) Shop", "AND OR NOT*", "Plain Shop"]
            try await repositories.transactions.insert(userID: "u1", count: merchants.count) { index in
                NewTransaction(
                    amountMinor: -100, currency: "USD", merchant: merchants[index], category: "Food",
                    createdAt: start.addingTimeInterval(-Double(index))
                )
            }
            for merchant in merchants {
                #expect(try await repositories.transactions.page(userID: "u1", after: nil, query: merchant, limit: 10)
                    .map(\.merchant) == [merchant])
            }
            #expect(try await repositories.transactions.page(userID: "u1", after: nil, query: #""Cheese""#, limit: 10).count == 1)
            #expect(try await repositories.transactions.page(userID: "u1", after: nil, query: "ot*", limit: 10).count == 1)
            #expect(try await repositories.transactions.page(userID: "u2", after: nil, query: "Shop", limit: 10).isEmpty)
        }
    }

    @Test("Spending sums what went out per category and currency within the period (a month, its first days), the largest first", arguments: TestStore.allCases)
    func spending(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            let start = Date(timeIntervalSince1970: 1_793_491_200) // 2026-11-01T00:00:00Z
            let end = Date(timeIntervalSince1970: 1_796_083_200) // 2026-12-01T00:00:00Z
            let rows: [(Int64, String, String, Date)] = [
                (-1_000, "USD", "Coffee", start),
                (-250, "USD", "Coffee", end.addingTimeInterval(-0.001)),
                (-5_000, "USD", "Travel", start.addingTimeInterval(86_400)),
                (-700, "EUR", "Coffee", start.addingTimeInterval(60)),
                (420_000, "USD", "Salary", start.addingTimeInterval(120)),
                (-9_999, "USD", "Coffee", start.addingTimeInterval(-0.001)),
                (-8_888, "USD", "Travel", end),
            ]
            try await repositories.transactions.insert(userID: "u1", count: rows.count) { index in
                let (amount, currency, category, date) = rows[index]
                return NewTransaction(amountMinor: amount, currency: currency, merchant: "M", category: category, createdAt: date)
            }
            try await repositories.transactions.insert(userID: "u2", count: 3) { _ in
                NewTransaction(amountMinor: -77_777, currency: "USD", merchant: "M", category: "Coffee", createdAt: start)
            }
            let november = try await repositories.transactions.spending(userID: "u1", from: start, to: end)
            #expect(november == [
                CategorySpendingRecord(category: "Travel", currency: "USD", amountMinor: 5_000),
                CategorySpendingRecord(category: "Coffee", currency: "USD", amountMinor: 1_250),
                CategorySpendingRecord(category: "Coffee", currency: "EUR", amountMinor: 700),
            ])
            #expect(try await repositories.transactions.spending(userID: "u2", from: start, to: end) == [
                CategorySpendingRecord(category: "Coffee", currency: "USD", amountMinor: 233_331),
            ])
            #expect(try await repositories.transactions.spending(userID: "u1", from: end, to: end.addingTimeInterval(86_400)) == [
                CategorySpendingRecord(category: "Travel", currency: "USD", amountMinor: 8_888),
            ])
            #expect(try await repositories.transactions.spending(userID: "nobody", from: start, to: end).isEmpty)
            // Equal amounts: by category, then by currency.
            _ = try await makeUser(repositories, id: "u3", phone: "+12025550102")
            let ties: [(String, String)] = [("Books", "USD"), ("Art", "USD"), ("Art", "EUR")]
            try await repositories.transactions.insert(userID: "u3", count: ties.count) { index in
                NewTransaction(
                    amountMinor: -300, currency: ties[index].1, merchant: "M", category: ties[index].0,
                    createdAt: start.addingTimeInterval(Double(index) * 86_400)
                )
            }
            #expect(try await repositories.transactions.spending(userID: "u3", from: start, to: end) == [
                CategorySpendingRecord(category: "Art", currency: "EUR", amountMinor: 300),
                CategorySpendingRecord(category: "Art", currency: "USD", amountMinor: 300),
                CategorySpendingRecord(category: "Books", currency: "USD", amountMinor: 300),
            ])
            // The first days of a month, as the same days of the month before are asked for: its first day only, then
            // its first two.
            #expect(try await repositories.transactions.spending(userID: "u1", from: start, to: start.addingTimeInterval(86_400)) == [
                CategorySpendingRecord(category: "Coffee", currency: "USD", amountMinor: 1_000),
                CategorySpendingRecord(category: "Coffee", currency: "EUR", amountMinor: 700),
            ])
            #expect(try await repositories.transactions.spending(userID: "u1", from: start, to: start.addingTimeInterval(2 * 86_400)) == [
                CategorySpendingRecord(category: "Travel", currency: "USD", amountMinor: 5_000),
                CategorySpendingRecord(category: "Coffee", currency: "USD", amountMinor: 1_000),
                CategorySpendingRecord(category: "Coffee", currency: "EUR", amountMinor: 700),
            ])
            // Several periods at once come back in the order asked, an empty one included, as each alone.
            let periods = [start..<start.addingTimeInterval(86_400), end..<end, start..<end, end..<end.addingTimeInterval(86_400)]
            var alone: [[CategorySpendingRecord]] = []
            for period in periods {
                alone.append(try await repositories.transactions.spending(userID: "u1", from: period.lowerBound, to: period.upperBound))
            }
            let together = try await repositories.transactions.spending(userID: "u1", in: periods)
            #expect(together == alone)
            #expect(together.map(\.count) == [2, 0, 3, 1])
            #expect(try await repositories.transactions.spending(userID: "u1", in: []).isEmpty)
        }
    }

    @Test("Notifications come newest first, count unread, and are marked read for their owner only", arguments: TestStore.allCases)
    func notifications(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await makeUser(repositories, id: "u2", phone: "+12025550101")
            let later = NotificationRecord(id: "n2", userID: "u1", title: "Later", body: "b", createdAt: now.addingTimeInterval(10), readAt: nil)
            try await repositories.notifications.insert(later)
            let list = try await repositories.notifications.notifications(userID: "u1", limit: 10)
            #expect(list.map(\.id) == ["n2", "welcome-u1"])
            #expect(list.first == later)
            #expect(try await repositories.notifications.notifications(userID: "u1", limit: 1).map(\.id) == ["n2"])
            #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == 2)
            #expect(try await repositories.accounts.overview(id: "u2")?.unreadNotifications == 1)
            #expect(try await !repositories.notifications.markRead(id: "n2", userID: "u2", at: now))
            #expect(try await repositories.notifications.markRead(id: "n2", userID: "u1", at: now.addingTimeInterval(20)))
            #expect(try await repositories.notifications.markRead(id: "n2", userID: "u1", at: now.addingTimeInterval(40)))
            #expect(try await repositories.notifications.notifications(userID: "u1", limit: 1).first?.readAt == now.addingTimeInterval(20))
            #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == 1)
        }
    }

    // MARK: Fixtures

    @discardableResult
    func makeUser(_ repositories: Repositories, id: String, phone: String) async throws -> UserRecord {
        let user = UserRecord(
            id: id, phone: phone, countryCode: "1", nationalNumber: String(phone.dropFirst(2)), fullName: "Sam Carter",
            passwordHash: "hash", balanceMinor: 100_000, currency: "USD", createdAt: now
        )
        try await repositories.accounts.create(NewAccount(
            user: user,
            issuedCard: CardRecord(
                id: "issued-\(id)", userID: id, kind: .issued, brand: "visa", last4: "4242", expiryMonth: 12,
                expiryYear: 2030, holderName: "Sam Carter", status: .inactive, fingerprint: "issued-\(id)", createdAt: now
            ),
            openingTransaction: NewTransaction(
                amountMinor: 100_000, currency: "USD", merchant: "Skiff", category: "Opening balance", createdAt: now
            ),
            welcome: NotificationRecord(id: "welcome-\(id)", userID: id, title: "Welcome", body: "Hi", createdAt: now, readAt: nil)
        ))
        return user
    }

    private func session(_ tokenHash: String, userID: String, revokedAt: Date? = nil) -> SessionRecord {
        SessionRecord(
            tokenHash: tokenHash, userID: userID, createdAt: now, lastUsedAt: now, expiresAt: now.addingTimeInterval(43_200),
            revokedAt: revokedAt
        )
    }

    private func verification(
        _ id: String, phone: String = "+12025550100", purpose: CodePurpose = .cardActivation, payload: Data? = nil,
        createdAt: Date? = nil
    ) -> VerificationRecord {
        let createdAt = createdAt ?? now
        return VerificationRecord(
            id: id, phone: phone, purpose: purpose, codeHash: "code-hash", userID: nil, subject: "card",
            payload: payload, createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(600), attempts: 0, consumedAt: nil
        )
    }
}

extension VerificationRepository {
    /// A try with no pause on the number.
    func attempt(
        id: String, at date: Date, _ isUsable: @escaping @Sendable (VerificationRecord) -> Bool,
        isRight: @escaping @Sendable (VerificationRecord) -> Bool, consumedBy: String? = nil
    ) async throws -> CodeAttempt {
        try await attempt(
            id: id, at: date, failuresSince: date.addingTimeInterval(-86_400), pause: { _ in nil },
            judge: { record in isUsable(record) ? (isRight(record) ? .right : .wrong) : .unusable }, consumedBy: consumedBy
        )
    }
}

private func card(_ id: String, userID: String, fingerprint: String, createdAt: Date) -> CardRecord {
    CardRecord(
        id: id, userID: userID, kind: .external, brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: 2031,
        holderName: "Sam Carter", status: .active, fingerprint: fingerprint, createdAt: createdAt
    )
}

extension CountryCodeWindow {
    /// Every code of country code 1.
    static let plusOne = CountryCodeWindow(countryCode: "1", since: .distantPast, newest: 1_000)
}

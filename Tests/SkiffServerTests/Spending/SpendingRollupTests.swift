import Foundation
import GRDB
import PostgresNIO
import SkiffAPI
import SkiffCore
import Testing
@testable import SkiffServer

/// The spending rollup (`SpendingRollup`) against a direct sum over `transactions`, on each store: after writes
/// through every path that inserts (registration, the repository's bulk insert the seeders use, plain SQL as any
/// other writer would), deletes and updates; its overflow; and its build from an existing history.
@Suite("Spending rollup")
struct SpendingRollupTests {
    /// 2026-11-01T00:00:00Z.
    static let november = Date(timeIntervalSince1970: 1_793_491_200)
    static let day: TimeInterval = 86_400

    /// UTC months from August 2026 to February 2027, as `CalendarMonth`s.
    static let months = (0..<7).map { offset in
        CalendarMonth(year: 2026 + (7 + offset) / 12, month: (7 + offset) % 12 + 1)
    }

    @Test("The rollup gives what a direct sum gives after inserts through every path, deletes and updates", arguments: TestStore.allCases)
    func matchesDirectSum(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            // Registration: an opening debit one millisecond before a month starts.
            try await createUser(repositories, id: "u1", opening: -2_500, at: Self.november.addingTimeInterval(-0.001))
            try await createUser(repositories, id: "u2", opening: -1_000, at: Self.november)
            // The repository's bulk insert, over several statements on PostgreSQL: every 7th a credit; three
            // currencies, five categories; some on a month's first and last millisecond.
            let categories = ["Coffee", "Groceries", "Travel", "Rent", "Books"]
            let currencies = ["USD", "EUR", "JPY"]
            let span = 150 * Self.day
            let first = Self.november.addingTimeInterval(-75 * Self.day)
            try await repositories.transactions.insert(userID: "u1", count: 12_001) { index in
                let edge: Date? = switch index % 1_000 {
                case 1: Self.months[index / 1_000 % Self.months.count].start
                case 2: Self.months[index / 1_000 % Self.months.count].end.addingTimeInterval(-0.001)
                default: nil
                }
                return NewTransaction(
                    amountMinor: index % 7 == 0 ? 10_000 : -Int64(index % 997 + 1), currency: currencies[index % 3],
                    merchant: "Shop \(index % 11)", category: categories[index % 5],
                    createdAt: edge ?? first.addingTimeInterval(span * Double(index) / 12_001)
                )
            }
            try await repositories.transactions.insert(userID: "u2", count: 500) { index in
                NewTransaction(
                    amountMinor: -Int64(index + 1), currency: "USD", merchant: "Corner", category: "Coffee",
                    createdAt: Self.november.addingTimeInterval(Double(index) * 3_600)
                )
            }
            // The seeders' transactions.
            try await DemoData.insertTransactions(
                repositories: repositories, userID: "u1", count: 2_000, endingAt: Self.november.addingTimeInterval(40 * Self.day),
                span: 120 * Self.day, currency: "USD", seed: 25
            )
            // Plain SQL, as a writer that knows nothing of the rollup: several rows in one statement.
            let midnight = Self.months[4].start.millisecondsSince1970
            try await store.execute("""
                INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at) VALUES
                    ('u1', -4000, 'EUR', 'Ledger', 'Transfers', \(midnight)),
                    ('u1', -6000, 'EUR', 'Ledger', 'Transfers', \(midnight - 1)),
                    ('u1', 9000, 'EUR', 'Ledger', 'Transfers', \(midnight)),
                    ('u2', -7, 'USD', 'Ledger', 'Transfers', \(midnight)),
                    ('u1', -3000, 'USD', 'Jordan L.', '\(StatementLine.transferCategory)', \(midnight)),
                    ('u1', -3100, 'USD', 'Jordan L.', '\(StatementLine.transferCategory)', \(midnight + 1)),
                    ('u2', -50, 'USD', 'Visa •••• 4242', '\(StatementLine.topUpCategory)', \(midnight))
                """)
            let spent = try await store.strings("SELECT COUNT(*) || '' FROM spending_days WHERE user_id = 'u1'")
            #expect(Int(spent.first ?? "") ?? 0 > 1_000)
            try await expectMatches(store)

            try await store.execute("DELETE FROM transactions WHERE user_id = 'u1' AND id % 3 = 0")
            try await store.execute("DELETE FROM transactions WHERE user_id = 'u1' AND category = 'Rent' AND currency = 'JPY'")
            try await expectMatches(store)

            try await store.execute("""
                UPDATE transactions SET category = 'Moved', amount_minor = amount_minor - 1 WHERE user_id = 'u1' AND id % 5 = 0
                """)
            try await store.execute("""
                UPDATE transactions SET created_at = created_at + \(20 * SpendingRollup.dayMilliseconds)
                WHERE user_id = 'u1' AND id % 4 = 1
                """)
            try await store.execute("UPDATE transactions SET merchant = 'Renamed' WHERE user_id = 'u1' AND id % 6 = 2")
            try await expectMatches(store)
            // A line that becomes a transfer leaves the spending; one that stops being one comes back.
            try await store.execute("""
                UPDATE transactions SET category = '\(StatementLine.transferCategory)' WHERE user_id = 'u1' AND id % 7 = 3
                """)
            try await store.execute("""
                UPDATE transactions SET category = 'Was a transfer'
                WHERE user_id = 'u1' AND category = '\(StatementLine.transferCategory)' AND id % 2 = 0
                """)
            try await expectMatches(store)
            // Sums back at zero leave no row; a user whose history is deleted has none at all. (Users themselves are
            // never deleted: their ledger accounts and postings are kept for good.)
            for table in ["spending_days", "spending_months"] {
                #expect(try await store.strings("SELECT COUNT(*) || '' FROM \(table) WHERE amount_minor >= 0") == ["0"])
            }
            try await store.execute("DELETE FROM transactions WHERE user_id = 'u2'")
            for table in ["spending_days", "spending_months"] {
                #expect(try await store.strings("SELECT COUNT(*) || '' FROM \(table) WHERE user_id = 'u2'") == ["0"])
            }
            #expect(try await repositories.transactions.spending(userID: "u2", from: Self.november, to: Self.months[4].end).isEmpty)
            try await expectMatches(store)
        }
    }

    @Test("A day's sum that would overflow 64 bits fails the insert and leaves everything as it was", arguments: TestStore.allCases)
    func overflow(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            try await createUser(repositories, id: "u1", opening: 100, at: Self.november)
            let half = Int64.min / 2
            try await repositories.transactions.insert(userID: "u1", count: 2) { _ in
                NewTransaction(amountMinor: half, currency: "USD", merchant: "M", category: "Big", createdAt: Self.november)
            }
            // Two halves make exactly Int64.min: the day's sum fits, and one unit more does not.
            #expect(try await store.strings("SELECT amount_minor || '' FROM spending_days") == ["\(Int64.min)"])
            await #expect(throws: (any Error).self) {
                try await repositories.transactions.insert(userID: "u1", count: 1) { _ in
                    NewTransaction(amountMinor: -1, currency: "USD", merchant: "M", category: "Big", createdAt: Self.november)
                }
            }
            await #expect(throws: (any Error).self) {
                try await store.execute("""
                    INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                    VALUES ('u1', -1, 'USD', 'M', 'Big', \(Self.november.millisecondsSince1970 + 5))
                    """)
            }
            #expect(try await store.strings("SELECT COUNT(*) || '' FROM transactions WHERE category = 'Big'") == ["2"])
            #expect(try await store.strings("SELECT amount_minor || '' FROM spending_days") == ["\(Int64.min)"])
            #expect(try await store.strings("SELECT amount_minor || '' FROM spending_months") == ["\(Int64.min)"])
        }
    }

    @Test("The migration builds the rollup from the history already there", arguments: TestStore.allCases)
    func builtFromHistory(store: TestStore) async throws {
        let rows = (0..<3_000).map { index in
            "('u1', \(index % 9 == 0 ? 500 : -(index % 313 + 1)), '\(["USD", "EUR"][index % 2])', 'Shop', "
                + "'\(["Coffee", "Books", "Travel"][index % 3])', "
                + "\(Self.november.millisecondsSince1970 - 40 * SpendingRollup.dayMilliseconds + Int64(index) * 2_345_678))"
        }
        let history = [
            """
            INSERT INTO users (id, phone, country_code, national_number, full_name, password_hash, balance_minor, currency,
                created_at) VALUES ('u1', '+12025550100', '1', '2025550100', 'Sam Carter', 'hash', 0, 'USD', 0)
            """,
            "INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at) VALUES "
                + rows.joined(separator: ", "),
        ]
        switch store {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-rollup-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let path = directory.appendingPathComponent("skiff.sqlite").path
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
            do {
                let pool = try DatabasePool(path: path)
                try SQLiteMigrations.migrate(pool, upTo: .codeCountry)
                try await pool.write { db in for statement in history { try db.execute(sql: statement) } }
            }
            let migrated = try SQLiteDatabase(path: path)
            try await expectMatches(migrated, users: ["u1"])
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in
                try await TestPostgres.withAdmin(url) { client in
                    try await PostgresMigrations.migrate(client, logger: TestStore.logger, upTo: .codeCountry)
                    for statement in history { _ = try await client.query(PostgresQuery(unsafeSQL: statement)) }
                }
                let migrated = try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger)
                do {
                    try await expectMatches(migrated, users: ["u1"])
                } catch {
                    await migrated.close()
                    throw error
                }
                await migrated.close()
            }
        }
    }

    /// The same days of the month before, by when it is asked: (now, the month before's first day, the day after the
    /// last one compared), all as `YYYY-MM-DD` in UTC.
    @Test("The month before is compared over as many days as the month has had, today included, and never past its own end", arguments: [
        ("2026-11-26T12:00:00.000Z", "2026-10-01", "2026-10-27"),
        ("2026-11-01T00:00:00.000Z", "2026-10-01", "2026-10-02"),
        ("2026-11-30T23:59:59.999Z", "2026-10-01", "2026-10-31"),
        ("2026-12-31T23:59:59.999Z", "2026-11-01", "2026-12-01"),
        ("2027-01-31T08:00:00.000Z", "2026-12-01", "2027-01-01"),
        ("2027-03-27T08:00:00.000Z", "2027-02-01", "2027-02-28"),
        ("2027-03-28T00:00:00.000Z", "2027-02-01", "2027-03-01"),
        ("2027-03-31T23:59:59.999Z", "2027-02-01", "2027-03-01"),
        ("2028-03-29T10:00:00.000Z", "2028-02-01", "2028-03-01"),
        ("2028-03-28T10:00:00.000Z", "2028-02-01", "2028-02-29"),
    ])
    func sameDays(now: String, from: String, to: String) throws {
        let instant = try #require(Self.instant(now))
        let month = CalendarMonth(containing: instant)
        let previous = month.previous
        let days = SpendingRollup.sameDays(of: previous.start..<previous.end, as: month.start..<month.end, now: instant)
        #expect(days == (try #require(Self.instant(from + "T00:00:00.000Z")))..<(try #require(Self.instant(to + "T00:00:00.000Z"))))
    }

    @Test("A month that is over, or has not begun, is compared with all of the month before")
    func sameDaysOutsideTheMonth() throws {
        let november = CalendarMonth(year: 2026, month: 11), october = november.previous
        for now in [november.end, november.end.addingTimeInterval(40 * Self.day), november.start.addingTimeInterval(-0.001)] {
            #expect(SpendingRollup.sameDays(of: october.start..<october.end, as: november.start..<november.end, now: now)
                == october.start..<october.end)
        }
    }

    @Test("A month key is the first millisecond of the UTC month, as the Gregorian calendar has it, before 1970 too")
    func monthStart() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        // Every 13th day from 1600 to 2400: each day of the month and every leap-year rule comes by.
        let first = try #require(calendar.date(from: DateComponents(year: 1600, month: 1, day: 1))).millisecondsSince1970
        let last = try #require(calendar.date(from: DateComponents(year: 2400, month: 12, day: 31))).millisecondsSince1970
        var checked = 0
        for day in stride(from: first, through: last, by: 13 * Int(SpendingRollup.dayMilliseconds)) {
            let date = Date(millisecondsSince1970: day)
            let components = calendar.dateComponents([.year, .month], from: date)
            let start = try #require(calendar.date(from: components))
            let next = try #require(calendar.date(byAdding: .month, value: 1, to: start))
            #expect(SpendingRollup.monthStart(ofDay: day) == start.millisecondsSince1970, "\(date)")
            #expect(SpendingRollup.nextMonthStart(ofDay: day) == next.millisecondsSince1970, "\(date)")
            checked += 1
        }
        #expect(checked > 22_000)
    }

    /// (first day, day after the last, as `YYYY-MM-DD`) → the plan's terms: "m" a whole month, "+d"/"-d" days added
    /// or taken away, each with its first key's date and its number of months or days.
    @Test("A run of days is read as whole months, and as days only where fewer than the month's other days", arguments: [
        ("2026-11-01", "2026-12-01", ["m 2026-11-01 1"]),
        ("2026-10-01", "2026-10-29", ["m 2026-10-01 1", "-d 2026-10-29 3"]),
        ("2026-10-01", "2026-10-16", ["+d 2026-10-01 15"]),
        ("2026-10-01", "2026-10-17", ["m 2026-10-01 1", "-d 2026-10-17 15"]),
        ("2026-10-03", "2026-10-30", ["m 2026-10-01 1", "-d 2026-10-01 2", "-d 2026-10-30 2"]),
        ("2026-10-25", "2026-12-03", ["+d 2026-10-25 7", "m 2026-11-01 1", "+d 2026-12-01 2"]),
        ("2027-02-01", "2027-02-15", ["+d 2027-02-01 14"]),
        ("2026-11-05", "2026-11-05", []),
    ])
    func plan(from: String, to: String, terms: [String]) throws {
        let start = try #require(Self.instant(from + "T00:00:00.000Z")), end = try #require(Self.instant(to + "T00:00:00.000Z"))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let plan = SpendingPlan(periods: [start..<end])
        let described = plan.terms.map { term in
            let first = formatter.string(from: Date(millisecondsSince1970: term.keys.lowerBound))
            switch term.source {
            case .month:
                var months = 0, cursor = term.keys.lowerBound
                while cursor < term.keys.upperBound {
                    cursor = SpendingRollup.nextMonthStart(ofDay: cursor)
                    months += 1
                }
                return "m \(first) \(cursor == term.keys.upperBound ? months : -months)"
            case .day:
                return "\(term.subtracts ? "-" : "+")d \(first) \((term.keys.upperBound - term.keys.lowerBound) / SpendingRollup.dayMilliseconds)"
            }
        }
        #expect(described == terms)
        #expect(plan.terms.allSatisfy { $0.period == 0 })
    }

    @Test("Each store's SQL month key is the Gregorian month's first millisecond, for every 13th day from 1600 to 2400", arguments: TestStore.allCases)
    func sqlMonthStart(store: TestStore) async throws {
        try await store.withFresh { store in
            let step = 13 * SpendingRollup.dayMilliseconds
            let first = InternetDateTranscoder.days(fromYear: 1600, month: 1, day: 1) * SpendingRollup.dayMilliseconds
            let last = InternetDateTranscoder.days(fromYear: 2400, month: 12, day: 31) * SpendingRollup.dayMilliseconds
            let monthStart = store is SQLiteDatabase
                ? SpendingRollup.sqliteMonthStart(ofDay: "day") : SpendingRollup.postgresMonthStart(ofDay: "day")
            let lines = try await store.strings("""
                WITH RECURSIVE days (day) AS (
                    SELECT CAST(\(first) AS BIGINT) UNION ALL SELECT day + \(step) FROM days WHERE day + \(step) <= \(last)
                )
                SELECT day || ' ' || \(monthStart) FROM days ORDER BY day
                """)
            let expected = stride(from: first, through: last, by: Int(step)).map { "\($0) \(SpendingRollup.monthStart(ofDay: $0))" }
            #expect(lines.count == expected.count && lines.count > 22_000)
            #expect(zip(lines, expected).filter { $0 != $1 }.prefix(3).map(\.0) == [])
        }
    }

    @Test("A period's sum is exact whatever the order of its rows: only the total has to fit 64 bits")
    func sumsInAnyOrder() throws {
        // September and October whole, less October's last three days.
        let september = try #require(Self.instant("2026-09-01T00:00:00.000Z")), end = try #require(Self.instant("2026-10-29T00:00:00.000Z"))
        let plan = SpendingPlan(periods: [september..<end])
        let october = SpendingRollup.nextMonthStart(ofDay: september.millisecondsSince1970)
        let october29 = end.millisecondsSince1970
        // The two months add up past Int64.min; the days taken away bring the total back to Int64.min + 1.
        let rows: [(SpendingPlan.Source, Int64, Int64)] = [
            (.month, september.millisecondsSince1970, -(1 << 62)), (.month, october, -(1 << 62) - 4), (.day, october29, -5),
        ]
        for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
            var sums = SpendingSums(plan, periods: 1)
            for index in order {
                let (source, key, amount) = rows[index]
                try sums.add(source, key: key, category: "Big", currency: "USD", amountMinor: amount)
            }
            #expect(try sums.records() == [[CategorySpendingRecord(category: "Big", currency: "USD", amountMinor: Int64.max)]], "\(order)")
        }
        // A total that does not fit is refused, once every row is in.
        var sums = SpendingSums(plan, periods: 1)
        try sums.add(.month, key: september.millisecondsSince1970, category: "Big", currency: "USD", amountMinor: -(1 << 62))
        try sums.add(.month, key: october, category: "Big", currency: "USD", amountMinor: -(1 << 62) - 4)
        #expect(throws: SpendingSums.Overflow.self) { try sums.records() }
        try sums.add(.day, key: october29, category: "Big", currency: "USD", amountMinor: -3)
        #expect(throws: SpendingSums.Overflow.self) { try sums.records() }
    }

    private static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// `spending` against the sum straight over `transactions`, for every month in the data, the same days of
    /// the month before, and a few days around each month's edges.
    private func expectMatches(
        _ store: any RepositoryStore, users: [String] = ["u1", "u2"], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var ranges: [(Date, Date)] = Self.months.map { ($0.start, $0.end) }
        for month in Self.months {
            ranges.append((month.previous.start, month.previous.start.addingTimeInterval(10 * Self.day)))
            ranges.append((month.start.addingTimeInterval(-2 * Self.day), month.start.addingTimeInterval(Self.day)))
            ranges.append((month.start, month.start.addingTimeInterval(Self.day)))
            // Most of a month: the month less the days left out, before, after or on both sides.
            ranges.append((month.start, month.start.addingTimeInterval(25 * Self.day)))
            ranges.append((month.start.addingTimeInterval(3 * Self.day), month.end))
            ranges.append((month.start.addingTimeInterval(2 * Self.day), month.end.addingTimeInterval(-2 * Self.day)))
            ranges.append((month.start.addingTimeInterval(20 * Self.day), month.end.addingTimeInterval(20 * Self.day)))
        }
        ranges.append((Self.months[0].start, Self.months[6].end))
        var compared = 0
        for user in users {
            for (start, end) in ranges {
                let rolledUp = try await store.repositories.transactions.spending(userID: user, from: start, to: end)
                    .map { "\($0.category)|\($0.currency)|\($0.amountMinor)" }
                let direct = try await store.strings("""
                    SELECT category || '|' || currency || '|' || spent FROM (
                        SELECT category, currency, -SUM(amount_minor) AS spent FROM transactions
                        WHERE user_id = '\(user)' AND created_at >= \(start.millisecondsSince1970)
                            AND created_at < \(end.millisecondsSince1970) AND \(SpendingRollup.isSpending())
                        GROUP BY category, currency
                    ) AS sums ORDER BY spent DESC, category, currency
                    """)
                #expect(rolledUp == direct, "\(user) from \(start) to \(end)", sourceLocation: sourceLocation)
                compared += direct.count
            }
        }
        #expect(compared > 0, sourceLocation: sourceLocation)
        // Each month's rows are its days' sums, keyed by the month SQL found for them.
        let days = try await store.strings("SELECT user_id || '|' || day || '|' || category || '|' || currency || '|' || amount_minor FROM spending_days")
        var monthsOfDays: [String: Int64] = [:]
        for line in days {
            let fields = line.split(separator: "|").map(String.init)
            let month = SpendingRollup.monthStart(ofDay: try #require(Int64(fields[1]), sourceLocation: sourceLocation))
            monthsOfDays["\(fields[0])|\(month)|\(fields[2])|\(fields[3])", default: 0] += try #require(Int64(fields[4]), sourceLocation: sourceLocation)
        }
        let months = try await store.strings("SELECT user_id || '|' || month || '|' || category || '|' || currency || '|' || amount_minor FROM spending_months")
        #expect(Set(months) == Set(monthsOfDays.map { "\($0.key)|\($0.value)" }), sourceLocation: sourceLocation)
        #expect(months.count == monthsOfDays.count, sourceLocation: sourceLocation)
    }

    private func createUser(_ repositories: Repositories, id: String, opening: Int64, at date: Date) async throws {
        try await repositories.accounts.create(NewAccount(
            user: UserRecord(
                id: id, phone: "+1202555010\(id.suffix(1))", countryCode: "1", nationalNumber: "202555010\(id.suffix(1))",
                fullName: "Sam Carter", passwordHash: "hash", balanceMinor: opening, currency: "USD", createdAt: date
            ),
            issuedCard: CardRecord(
                id: "issued-\(id)", userID: id, kind: .issued, brand: "visa", last4: "4242", expiryMonth: 12,
                expiryYear: 2030, holderName: "Sam Carter", status: .inactive, fingerprint: "issued-\(id)", createdAt: date
            ),
            openingTransaction: NewTransaction(
                amountMinor: opening, currency: "USD", merchant: "Skiff", category: "Opening balance", createdAt: date
            ),
            welcome: NotificationRecord(id: "welcome-\(id)", userID: id, title: "Welcome", body: "Hi", createdAt: date, readAt: nil)
        ))
    }
}

extension RepositoryStore {
    /// Runs `sql` as it is, as a writer that goes around the repositories would.
    func execute(_ sql: String) async throws {
        switch self {
        case let sqlite as SQLiteDatabase: try await sqlite.pool.write { db in try db.execute(sql: sql) }
        case let postgres as SkiffServer.PostgresDatabase: _ = try await postgres.rows(PostgresQuery(unsafeSQL: sql))
        default: throw TestFailure("no raw SQL for \(type(of: self))")
        }
    }

    /// The first column of each row of `sql`, as text.
    func strings(_ sql: String) async throws -> [String] {
        switch self {
        case let sqlite as SQLiteDatabase: return try await sqlite.pool.read { db in try String.fetchAll(db, sql: sql) }
        case let postgres as SkiffServer.PostgresDatabase: return try await postgres.rows(PostgresQuery(unsafeSQL: sql)).map { try $0.decode(String.self) }
        default: throw TestFailure("no raw SQL for \(type(of: self))")
        }
    }
}

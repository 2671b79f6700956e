import Testing

/// Every end-to-end suite, one test at a time: each drives real binaries in tmux against timeouts, and run side by
/// side (seven suites starting `skiff`, its built-in server and tmux servers at once on two cores) they starved each
/// other into timing failures (a lone Esc seen after 1.2 s, a signal test's screen not shown in time).
@Suite("End to end", .serialized)
enum EndToEnd {}

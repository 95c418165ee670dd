/// Runs `operation` for every element with at most `limit` of them in
/// flight at once, as a client pool would, and throws the first error.
///
/// A burst of hundreds of requests at once measures the gateway's queue
/// wait on whatever else the machine is doing; tests that are about what
/// the requests leave behind send them this way instead.
func forEach<Element: Sendable>(
    _ elements: some Sequence<Element>, inFlight limit: Int, _ operation: @escaping @Sendable (Element) async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var running = 0
        for element in elements {
            if running == limit {
                try await group.next()
                running -= 1
            }
            group.addTask { try await operation(element) }
            running += 1
        }
        try await group.waitForAll()
    }
}

import Clocks
import Domain
import Synchronization

/// The one search that counts: starting one cancels the one before, and
/// only the newest may publish (checked under the same lock as the
/// publishing, so a stale answer can never slip in after a newer state).
///
/// The debounce is one sleep per keystroke, cancelled by the next, rather
/// than AsyncAlgorithms' `debounce`: that one takes its deadline whenever
/// its task gets to read the keystroke, which a test cannot see, so a test
/// moving a manual clock could not know whether the keystroke was counted
/// yet. A sleep per keystroke is visible on the clock (ManualClock in the
/// tests waits for it), which keeps the timer tests deterministic.
final class LatestSearch: Sendable {
    private struct State {
        var generation = 0
        var task: Task<Void, Never>?
        var lastSearched: String?
    }
    private let state = Mutex(State())
    private let continuation: AsyncStream<SearchState>.Continuation

    init(_ continuation: AsyncStream<SearchState>.Continuation) { self.continuation = continuation }

    func start(_ query: String, after wait: Duration?, clock: AnyClock<Duration>, force: Bool, search: any SearchUseCase) {
        state.withLock { state in
            state.task?.cancel()
            state.generation += 1
            let generation = state.generation
            state.task = Task {
                if let wait, (try? await clock.sleep(for: wait)) == nil { return }  // cancelled: a newer one runs
                guard self.begin(query, generation: generation, force: force) else { return }
                guard !query.isEmpty else { return self.publish(.idle, generation) }
                self.publish(.searching(query), generation)
                do throws(PostsError) {
                    self.publish(
                        SearchState(query: query, results: try await search.search(query, limit: SearchViewModel.limit, offset: 0)), generation)
                } catch {
                    self.publish(.failed(query, Problem(error)), generation)
                }
            }
        }
    }

    /// Whether `query` is to be searched: it is still the newest, and not
    /// the same as the last one searched (unless forced).
    private func begin(_ query: String, generation: Int, force: Bool) -> Bool {
        state.withLock { state in
            guard state.generation == generation, force || state.lastSearched != query else { return false }
            state.lastSearched = query
            return true
        }
    }

    private func publish(_ value: SearchState, _ generation: Int) {
        state.withLock { state in if state.generation == generation { continuation.yield(value) } }
    }

    func cancel() { state.withLock { $0.task?.cancel() } }
}

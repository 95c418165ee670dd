import Clocks
import Domain
import Foundation
import Synchronization

/// Services, processes and search lag, refreshed every few seconds (on the
/// injected clock) and on demand.
public struct StatusViewModel: ViewModelType, Sendable {
    /// What the person did, in the order they did it.
    public enum Action: Sendable, Equatable { case refresh, back }

    public struct Input: Sendable {
        public var actions: AsyncStream<Action>
        public init(actions: AsyncStream<Action>) { self.actions = actions }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<StatusState>
    }

    public static let interval = Duration.seconds(2)

    let status: any StatusUseCase
    let navigator: any Navigator
    let clock: AnyClock<Duration>

    public init(status: any StatusUseCase, navigator: any Navigator, clock: AnyClock<Duration>) {
        (self.status, self.navigator, self.clock) = (status, navigator, clock)
    }

    public func transform(input: Input) -> Output {
        let (status, navigator, clock, actions) = (status, navigator, clock, input.actions)
        let state = AsyncStream<StatusState>.running { continuation in
            let (refreshes, refresh) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let busy = Atomic(false)
            // Back is never kept waiting behind a refresh.
            let routing = Task {
                for await action in actions {
                    switch action {
                    case .refresh: refresh.yield()
                    case .back:
                        navigator.navigate(to: .back)
                        refresh.finish()
                        return
                    }
                }
                refresh.finish()
            }
            // A tick while a refresh is still running (a slow gateway) is skipped, so they never pile up.
            let ticking = Task {
                refresh.yield()
                while (try? await clock.sleep(for: Self.interval)) != nil {
                    if !busy.load(ordering: .acquiring) { refresh.yield() }
                }
            }
            defer { routing.cancel(); ticking.cancel() }
            var state = StatusState()
            for await _ in refreshes {
                busy.store(true, ordering: .releasing)
                state.isFetching = true
                continuation.yield(state)
                do throws(PostsError) {
                    state.status = try await status.status()
                    state.problem = nil
                } catch {
                    state.problem = Problem(error)  // the last good status stays shown
                }
                state.isFetching = false
                busy.store(false, ordering: .releasing)
                continuation.yield(state)
            }
        }
        return Output(state: state)
    }
}

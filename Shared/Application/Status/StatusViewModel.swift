import Clocks
import Domain
import Foundation

/// Services, workers and search lag, refreshed every few seconds (on the
/// injected clock) and on demand.
public struct StatusViewModel: ViewModelType, Sendable {
    public struct Input: Sendable {
        public var refresh: AsyncStream<Void>
        public var back: AsyncStream<Void>

        public init(refresh: AsyncStream<Void>, back: AsyncStream<Void>) {
            (self.refresh, self.back) = (refresh, back)
        }
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

    enum Action: Sendable { case refresh, back }

    public func transform(input: Input) -> Output {
        let clock = self.clock
        let ticks = AsyncStream<Action>.running { continuation in
            continuation.yield(.refresh)
            while (try? await clock.sleep(for: Self.interval)) != nil { continuation.yield(.refresh) }
        }
        let actions = funnel([ticks, .mapping(input.refresh) { Action.refresh }, .mapping(input.back) { Action.back }])
        let (status, navigator) = (status, navigator)
        let state = AsyncStream<StatusState>.running { continuation in
            var state = StatusState()
            for await action in actions {
                if action == .back {
                    navigator.navigate(to: .back)
                    continue
                }
                state.isFetching = true
                continuation.yield(state)
                do {
                    state.status = try await status.status()
                    state.error = nil
                } catch {
                    state.error = "\(error)"  // the last good status stays shown
                }
                state.isFetching = false
                continuation.yield(state)
            }
        }
        return Output(state: state)
    }
}

/// What the status screen shows.
public struct StatusState: Sendable, Equatable {
    public var status: SystemStatus?
    public var isFetching = false
    public var error: String?

    public init() {}
}

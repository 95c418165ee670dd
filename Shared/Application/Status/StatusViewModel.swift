import Clocks
import Domain
import Foundation
import Synchronization

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

    public func transform(input: Input) -> Output {
        let clock = self.clock
        let busy = Atomic(false)
        // A tick while a refresh is still running (a slow gateway) is skipped, so they never pile up.
        let ticks = AsyncStream<Void>.running { continuation in
            continuation.yield(())
            while (try? await clock.sleep(for: Self.interval)) != nil {
                if !busy.load(ordering: .acquiring) { continuation.yield(()) }
            }
        }
        let refreshes = funnel([ticks, input.refresh])
        let (status, navigator, back) = (status, navigator, input.back)
        let state = AsyncStream<StatusState>.running { continuation in
            // Back is never kept waiting behind a refresh.
            let navigation = Task {
                for await _ in back {
                    navigator.navigate(to: .back)
                    return
                }
            }
            defer { navigation.cancel() }
            var state = StatusState()
            for await _ in refreshes {
                busy.store(true, ordering: .releasing)
                defer { busy.store(false, ordering: .releasing) }
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

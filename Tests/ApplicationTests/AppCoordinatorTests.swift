import Application
import Foundation
import Synchronization
import TestSupport
import Testing

/// Records what the coordinator asked the view layer to do.
final class PresenterRecorder: Presenter {
    enum Call: Equatable { case present(AppRoute), dismiss(AppRoute), finish }
    private let calls = Mutex<[Call]>([])
    func present(_ route: AppRoute) { calls.withLock { $0.append(.present(route)) } }
    func dismiss(to route: AppRoute) { calls.withLock { $0.append(.dismiss(route)) } }
    func finish() { calls.withLock { $0.append(.finish) } }
    var recorded: [Call] { calls.withLock { $0 } }
}

@Suite("App coordinator", .timeLimit(.minutes(1)))
struct AppCoordinatorTests {
    @Test func test_startShowsTheList_andBackFromTheListFinishes() async {
        let presenter = PresenterRecorder()
        let coordinator = AppCoordinator(presenter: presenter)
        coordinator.start()
        coordinator.navigate(to: .back)
        #expect(presenter.recorded == [.present(.list), .finish])
    }

    @Test func test_screensStack_andBackReturnsToTheOneBelow() async {
        let presenter = PresenterRecorder()
        let coordinator = AppCoordinator(presenter: presenter)
        let uid = UUID()
        coordinator.start()
        coordinator.navigate(to: .search)
        coordinator.navigate(to: .detail(uid))
        #expect(coordinator.routes == [.list, .search, .detail(uid)])
        coordinator.navigate(to: .back)
        #expect(coordinator.routes == [.list, .search])
        #expect(presenter.recorded.last == .dismiss(.search))
    }

    @Test func test_askingForAScreenAlreadyOpenBelow_returnsToIt_insteadOfStackingACopy() async {
        let presenter = PresenterRecorder()
        let coordinator = AppCoordinator(presenter: presenter)
        coordinator.start()
        coordinator.navigate(to: .search)
        coordinator.navigate(to: .detail(UUID()))
        coordinator.navigate(to: .search)
        #expect(coordinator.routes == [.list, .search])
        coordinator.navigate(to: .list)
        #expect(coordinator.routes == [.list])
        #expect(presenter.recorded.suffix(2) == [.dismiss(.search), .dismiss(.list)])
    }

    @Test func test_createAndEditOpenOnTop() async {
        let presenter = PresenterRecorder()
        let coordinator = AppCoordinator(presenter: presenter)
        let uid = UUID()
        coordinator.start()
        coordinator.navigate(to: .create)
        coordinator.navigate(to: .back)
        coordinator.navigate(to: .edit(uid))
        #expect(presenter.recorded == [.present(.list), .present(.create), .dismiss(.list), .present(.edit(uid))])
    }
}

import Application
import Domain
import Foundation
import TestSupport
import Testing

// 3 minutes: a hang guard. Its rounds of racing keys take 0.4 s alone and
// 20-34 s in a full run, where a hundred child processes share two cores.
@Suite("Create post view model", .timeLimit(.minutes(3)))
struct CreatePostViewModelTests {
    /// The view model over the real interactor on an in-memory store.
    struct Screen {
        let actions = Feed<CreatePostViewModel.Action>()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<CreatePostState>

        init(store: MemoryPostStore) {
            states =
                CreatePostViewModel(posts: PostsInteractor(store: store), navigator: navigator).transform(input: .init(actions: actions.stream)).state
        }

        /// Types `title`, saves, and returns the state the failed save shows.
        func failedSave(titled title: String, _ states: inout AsyncStream<CreatePostState>.Iterator) async -> CreatePostState? {
            _ = await states.next()
            actions.send(.title(title))
            _ = await states.next()
            actions.send(.save)
            _ = await states.next()
            return await states.next()
        }
    }

    @Test func test_saveIsEnabledOnlyWhenValid_andNotWhileSaving_thenTheScreenCloses() async {
        let store = MemoryPostStore()
        let screen = Screen(store: store)
        var states = screen.states.makeAsyncIterator()
        #expect(await states.next()?.saveEnabled == false, "an empty title cannot be saved")
        screen.actions.send(.save)  // refused
        screen.actions.send(.content("Words"))
        #expect(await states.next()?.saveEnabled == false)
        screen.actions.send(.title(String(repeating: "x", count: 201)))
        #expect(await states.next()?.saveEnabled == false, "a title over 200 characters cannot be saved")
        screen.actions.send(.title("A new post"))
        #expect(await states.next()?.saveEnabled == true)
        screen.actions.send(.save)
        screen.actions.send(.save)  // a second press saves nothing more
        let saving = await states.next()
        #expect(saving?.isSaving == true && saving?.saveEnabled == false)
        let saved = await states.next()
        #expect(saved?.saved != nil)
        #expect(await screen.navigator.waitFor(1) == [.back], "dismissed after saving")
        #expect(store.saved.map(\.title) == ["A new post"])
        #expect(store.saved.map(\.content) == ["Words"])
    }

    @Test func test_aKeystrokeJustBeforeSave_isAlwaysInTheSavedPost() async {
        for round in 0..<200 {
            let store = MemoryPostStore()
            let screen = Screen(store: store)
            var states = screen.states.makeAsyncIterator()
            _ = await states.next()
            // As fast as keys come: no waiting for any state in between.
            screen.actions.send(.title("Post"))
            screen.actions.send(.content("Body \(round)"))
            screen.actions.send(.title("Post \(round)"))
            screen.actions.send(.save)
            while let state = await states.next(), state.saved == nil {}
            #expect(store.saved.map(\.title) == ["Post \(round)"])
            #expect(store.saved.map(\.content) == ["Body \(round)"])
        }
    }

    @Test func test_aFailedSaveShowsTheOutage_andKeepsTheText_cancelDismisses() async {
        let store = MemoryPostStore()
        store.failing(with: .unavailable(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        let screen = Screen(store: store)
        var states = screen.states.makeAsyncIterator()
        let failed = await screen.failedSave(titled: "Kept", &states)
        #expect(failed?.problem == .outage(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        #expect(failed?.title == "Kept" && failed?.saveEnabled == true)
        screen.actions.send(.cancel)
        #expect(await screen.navigator.waitFor(1) == [.back])
    }

    @Test func test_aTitleTheServiceRefuses_isShownAsThatField() async {
        let store = MemoryPostStore()
        store.failing(with: .invalid("title", .forbiddenCharacter(0)))
        let screen = Screen(store: store)
        var states = screen.states.makeAsyncIterator()
        #expect(await screen.failedSave(titled: "Fine here", &states)?.problem == .invalid(InvalidField("title", .forbiddenCharacter(0))))
    }
}

import Application
import Domain
import Foundation
import TestSupport
import Testing

// 3 minutes: a hang guard. Its rounds of racing keys take 0.4 s alone and
// 20-34 s in a full run, where a hundred child processes share two cores.
@Suite("Post detail view model", .timeLimit(.minutes(3)))
struct PostDetailViewModelTests {
    /// The view model over the real interactor on an in-memory store.
    struct Screen {
        let actions = Feed<PostDetailViewModel.Action>()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<PostDetailState>

        init(uid: UUID, store: MemoryPostStore, editing: Bool = false) {
            let model = PostDetailViewModel(uid: uid, posts: PostsInteractor(store: store), navigator: navigator, startEditing: editing)
            states = model.transform(input: .init(actions: actions.stream)).state
        }

        /// Loads and reads the two states a load shows.
        func loaded(_ states: inout AsyncStream<PostDetailState>.Iterator) async -> PostDetailState? {
            actions.send(.load)
            _ = await states.next()
            return await states.next()
        }
    }

    let post = Post(title: "Original", content: "Body")

    @Test func test_editThenSave_andSaveIsEnabledOnlyWhileTheDraftIsValid() async {
        let store = MemoryPostStore(posts: [post])
        let screen = Screen(uid: post.uid, store: store)
        var states = screen.states.makeAsyncIterator()
        let shown = await screen.loaded(&states)
        #expect(shown?.post?.title == "Original" && shown?.editing == false && shown?.saveEnabled == false)
        screen.actions.send(.edit)
        let editing = await states.next()
        #expect(editing?.editing == true && editing?.draftTitle == "Original" && editing?.saveEnabled == true)
        screen.actions.send(.title("   "))
        #expect(await states.next()?.saveEnabled == false, "a blank title cannot be saved")
        screen.actions.send(.save)  // refused: nothing is saved
        screen.actions.send(.title("Edited"))
        #expect(await states.next()?.saveEnabled == true)
        screen.actions.send(.save)
        #expect(await states.next()?.isSaving == true)
        let saved = await states.next()
        #expect(saved?.editing == false && saved?.post?.title == "Edited" && saved?.post?.content == "Body")
        #expect(store.saved.map(\.title) == ["Edited"])
    }

    @Test func test_aKeystrokeJustBeforeSave_isAlwaysInTheSavedPost() async {
        for round in 0..<200 {
            let store = MemoryPostStore(posts: [post])
            let screen = Screen(uid: post.uid, store: store, editing: true)
            var states = screen.states.makeAsyncIterator()
            _ = await screen.loaded(&states)
            // As fast as keys come: no waiting for any state in between.
            screen.actions.send(.title("Edite"))
            screen.actions.send(.title("Edited \(round)"))
            screen.actions.send(.save)
            var last: PostDetailState?
            while let state = await states.next() {
                last = state
                if state.post?.title != "Original" && !state.isSaving { break }
            }
            #expect(last?.post?.title == "Edited \(round)")
            #expect(store.saved.map(\.title) == ["Edited \(round)"])
        }
    }

    @Test func test_deleteAsksForConfirmation_noKeepsThePost_yesDeletesAndGoesBack() async {
        let store = MemoryPostStore(posts: [post])
        let screen = Screen(uid: post.uid, store: store)
        var states = screen.states.makeAsyncIterator()
        _ = await screen.loaded(&states)
        screen.actions.send(.delete)
        #expect(await states.next()?.confirmingDelete == true)
        screen.actions.send(.confirmDelete(false))
        #expect(await states.next()?.confirmingDelete == false)
        #expect(store.deleted.isEmpty)
        screen.actions.send(.delete)
        _ = await states.next()
        screen.actions.send(.confirmDelete(true))
        #expect(await screen.navigator.waitFor(1) == [.back])
        #expect(store.deleted == [post.uid])
    }

    @Test func test_aMissingPostIsNotFound_andAFailedSaveIsAnOutage_keepingTheDraft() async {
        let store = MemoryPostStore(posts: [post])
        let missing = Screen(uid: UUID(), store: store)
        var missingStates = missing.states.makeAsyncIterator()
        #expect(await missing.loaded(&missingStates)?.problem == .notFound)

        let screen = Screen(uid: post.uid, store: store, editing: true)
        var states = screen.states.makeAsyncIterator()
        #expect(await screen.loaded(&states)?.editing == true, "opened by the edit route")
        screen.actions.send(.title("Mine"))
        _ = await states.next()
        store.failing(with: .unavailable(.noWorker(service: "posts")))
        screen.actions.send(.save)
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.problem == .outage(.noWorker(service: "posts")))
        #expect(failed?.editing == true && failed?.draftTitle == "Mine", "the draft is kept")
    }

    @Test func test_anInvalidFieldIsNamed() async {
        let store = MemoryPostStore(posts: [post])
        let screen = Screen(uid: post.uid, store: store, editing: true)
        var states = screen.states.makeAsyncIterator()
        _ = await screen.loaded(&states)
        store.failing(with: .invalid("content", .tooLong(max: 100_000, actual: 100_001, unit: .bytes)))
        screen.actions.send(.save)
        _ = await states.next()
        #expect(await states.next()?.problem == .invalid(InvalidField("content", .tooLong(max: 100_000, actual: 100_001, unit: .bytes))))
    }

    @Test func test_backPressedTwice_asksTheCoordinatorOnce_andTheScreenEnds() async {
        let screen = Screen(uid: post.uid, store: MemoryPostStore(posts: [post]))
        screen.actions.send(.back)
        screen.actions.send(.back)  // the second reaches the screen below, never this one
        for await _ in screen.states {}
        #expect(screen.navigator.recorded == [.back])
    }

    @Test func test_aSaveOverAnEditMadeElsewhere_isAConflict_theDraftIsKept_andCanBeSavedOverTheLatest() async throws {
        let store = MemoryPostStore(posts: [post])
        let screen = Screen(uid: post.uid, store: store, editing: true)
        var states = screen.states.makeAsyncIterator()
        _ = await screen.loaded(&states)
        store.changeElsewhere(post.uid, title: "Changed elsewhere")
        screen.actions.send(.title("My edit"))
        _ = await states.next()
        screen.actions.send(.save)
        _ = await states.next()
        let refused = await states.next()
        #expect(refused?.problem == .conflict)
        #expect(refused?.editing == true && refused?.draftTitle == "My edit", "the draft is kept")
        #expect(try await store.post(uid: post.uid)?.title == "Changed elsewhere", "their edit stands")
        let latest = await screen.loaded(&states)
        #expect(latest?.post?.title == "Changed elsewhere" && latest?.draftTitle == "My edit", "the latest under the draft")
        screen.actions.send(.save)
        _ = await states.next()
        #expect(await states.next()?.post?.title == "My edit", "saved over the version now read")
    }
}

import Application
import Domain
import Foundation
import Testing

@Suite("Post detail view model", .timeLimit(.minutes(1)))
struct PostDetailViewModelTests {
    struct Screen {
        let load = Feed<Void>(), editOrSave = Feed<Void>(), cancelEdit = Feed<Void>()
        let title = Feed<String>(), content = Feed<String>()
        let delete = Feed<Void>(), confirm = Feed<Bool>(), back = Feed<Void>()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<PostDetailState>

        init(uid: UUID, posts: PostsDouble, editing: Bool = false) {
            let model = PostDetailViewModel(uid: uid, posts: posts, navigator: navigator, startEditing: editing)
            states = model.transform(input: .init(load: load.stream, editOrSave: editOrSave.stream, cancelEdit: cancelEdit.stream,
                                                  title: title.stream, content: content.stream, delete: delete.stream,
                                                  confirmDelete: confirm.stream, back: back.stream)).state
        }
    }

    let post = Post(title: "Original", content: "Body")

    @Test func test_editTogglesToSave_andSaveIsEnabledOnlyWhileTheDraftIsValid() async {
        let posts = PostsDouble(posts: [post])
        let screen = Screen(uid: post.uid, posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        #expect(await states.next()?.isLoading == true)
        let shown = await states.next()
        #expect(shown?.post?.title == "Original" && shown?.editing == false && shown?.saveEnabled == false)
        screen.editOrSave.send()
        let editing = await states.next()
        #expect(editing?.editing == true && editing?.draftTitle == "Original" && editing?.saveEnabled == true)
        screen.title.send("   ")
        #expect(await states.next()?.saveEnabled == false, "a blank title cannot be saved")
        screen.editOrSave.send()  // refused: nothing is saved
        screen.title.send("Edited")
        #expect(await states.next()?.saveEnabled == true)
        screen.editOrSave.send()
        #expect(await states.next()?.isSaving == true)
        let saved = await states.next()
        #expect(saved?.editing == false && saved?.post?.title == "Edited")
        #expect(posts.saved.map(\.title) == ["Edited"])
    }

    @Test func test_deleteAsksForConfirmation_noKeepsThePost_yesDeletesAndGoesBack() async {
        let posts = PostsDouble(posts: [post])
        let screen = Screen(uid: post.uid, posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        _ = await states.next()
        screen.delete.send()
        #expect(await states.next()?.confirmingDelete == true)
        screen.confirm.send(false)
        #expect(await states.next()?.confirmingDelete == false)
        #expect(posts.deleted.isEmpty)
        screen.delete.send()
        _ = await states.next()
        screen.confirm.send(true)
        #expect(await screen.navigator.waitFor(1) == [.back])
        #expect(posts.deleted == [post.uid])
    }

    @Test func test_errorsAreShown_aMissingPostAndAFailedSave() async {
        let posts = PostsDouble(posts: [post])
        let missing = Screen(uid: UUID(), posts: posts)
        var missingStates = missing.states.makeAsyncIterator()
        missing.load.send()
        _ = await missingStates.next()
        #expect(await missingStates.next()?.error?.contains("no post") == true)

        let screen = Screen(uid: post.uid, posts: posts, editing: true)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        #expect(await states.next()?.editing == true, "opened by the edit route")
        posts.failing(with: .unavailable("the gateway is not running"))
        screen.editOrSave.send()
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.error == "the gateway is not running" && failed?.editing == true, "the draft is kept")
    }

    @Test func test_backPressedTwice_leavesOnlyThisScreen() async {
        let screen = Screen(uid: post.uid, posts: PostsDouble(posts: [post]))
        let reading = Task { for await _ in screen.states {} }
        defer { reading.cancel() }
        screen.back.send()
        screen.back.send()
        #expect(await screen.navigator.waitFor(2) == [.back], "the screen below stays")
    }

    @Test func test_aSaveOverAnEditMadeElsewhere_isRefused_andTheDraftKept() async throws {
        let posts = PostsDouble(posts: [post])
        let screen = Screen(uid: post.uid, posts: posts, editing: true)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        _ = await states.next()
        var elsewhere = post
        (elsewhere.title, elsewhere.updateDate) = ("Changed elsewhere", post.updateDate.addingTimeInterval(5))
        _ = try? await posts.save(elsewhere)
        screen.title.send("My edit")
        _ = await states.next()
        screen.editOrSave.send()
        _ = await states.next()
        let refused = await states.next()
        #expect(refused?.error?.contains("changed or deleted elsewhere") == true)
        #expect(refused?.editing == true && refused?.draftTitle == "My edit", "the draft is kept")
        #expect(try await posts.post(uid: post.uid).title == "Changed elsewhere", "their edit stands")
    }
}

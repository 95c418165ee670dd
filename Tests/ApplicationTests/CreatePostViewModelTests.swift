import Application
import Domain
import Foundation
import Testing

@Suite("Create post view model", .timeLimit(.minutes(1)))
struct CreatePostViewModelTests {
    struct Screen {
        let title = Feed<String>(), content = Feed<String>(), save = Feed<Void>(), cancel = Feed<Void>()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<CreatePostState>

        init(posts: PostsDouble) {
            let model = CreatePostViewModel(posts: posts, navigator: navigator)
            states = model.transform(input: .init(title: title.stream, content: content.stream, save: save.stream, cancel: cancel.stream)).state
        }
    }

    @Test func test_saveIsEnabledOnlyWhenValid_andNotWhileSaving_thenTheScreenCloses() async {
        let posts = PostsDouble()
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        #expect(await states.next()?.saveEnabled == false, "an empty title cannot be saved")
        screen.save.send()  // refused
        screen.content.send("Words")
        #expect(await states.next()?.saveEnabled == false)
        screen.title.send(String(repeating: "x", count: 201))
        #expect(await states.next()?.saveEnabled == false, "a title over 200 characters cannot be saved")
        screen.title.send("A new post")
        #expect(await states.next()?.saveEnabled == true)
        screen.save.send()
        screen.save.send()  // a second press while saving saves nothing more
        let saving = await states.next()
        #expect(saving?.isSaving == true && saving?.saveEnabled == false)
        let saved = await states.next()
        #expect(saved?.saved != nil)
        #expect(await screen.navigator.waitFor(1) == [.back], "dismissed after saving")
        #expect(posts.saved.map(\.title) == ["A new post"])
        #expect(posts.saved.map(\.content) == ["Words"])
    }

    @Test func test_aFailedSaveShowsTheError_andKeepsTheText_cancelDismisses() async {
        let posts = PostsDouble()
        posts.failing(with: .unavailable("no search worker"))
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        _ = await states.next()
        screen.title.send("Kept")
        _ = await states.next()
        screen.save.send()
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.error == "no search worker" && failed?.title == "Kept" && failed?.saveEnabled == true)
        screen.cancel.send()
        #expect(await screen.navigator.waitFor(1) == [.back])
    }
}

import ArgumentParser
import Domain

/// The request key a write is sent under: a script that sends the same
/// write again (after a timeout, say) with the same key has it applied
/// once, and is answered as the first time; the same key with other
/// content is refused. A post created under a key takes its uid from the
/// key. Without one, each run is a write of its own (its own retries
/// through the gateways still apply once).
struct KeyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Apply this write once however often it is sent with this key (1-\(RequestKey.maxLength) of A-Z a-z 0-9 . _ : -; remembered 10 minutes).",
            valueName: "key"))
    var requestKey: String?

    func validate() throws {
        do {
            _ = try key()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func key() throws(PostsError) -> RequestKey? {
        try requestKey.map { text throws(PostsError) in try RequestKey(text, field: "--request-key") }
    }
}

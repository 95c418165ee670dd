import Domain
import Foundation
import GRDB
import Logging

/// A post as stored. Dates are seconds since 1970 as REAL, so they sort,
/// compare and round-trip exactly (cursors depend on that).
struct PostRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "post"

    var uid: String
    var title: String
    var content: String
    var createDate: Double
    var updateDate: Double
    var sequence: Int64

    init(domain post: Post, sequence: Int64) {
        uid = post.uid.text
        title = post.title
        content = post.content
        createDate = post.createDate.timeIntervalSince1970
        updateDate = post.updateDate.timeIntervalSince1970
        self.sequence = sequence
    }

    /// The statement that reads one post by its uid, and the post it gives
    /// (`post(uid:_:)`). The uid is not read back: `uid = ?` compares text
    /// exactly, so a row found holds the very text asked for.
    static let selectByUID = "SELECT title, content, createDate, updateDate FROM post WHERE uid = ?"

    /// The post `selectByUID` found for `uid`, from its row.
    static func post(uid: UUID, _ row: SQLiteRow) -> Post {
        post(uid: uid, title: row.text(0), content: row.text(1), createDate: row.double(2), updateDate: row.double(3))
    }

    /// Domain's post from what is stored, however it was read.
    private static func post(uid: UUID, title: String, content: String, createDate: Double, updateDate: Double) -> Post {
        Post(
            uid: uid, title: title, content: content,
            createDate: Date(timeIntervalSince1970: createDate), updateDate: Date(timeIntervalSince1970: updateDate))
    }

    /// The post, or nil (logged) when its stored uid is not a UUID: only a
    /// database written by something else can hold one, and such a row can
    /// be neither read nor changed by uid, so it is left out.
    func toDomain() -> Post? {
        guard let uid = StoredUID.parse(uid, sequence: sequence) else { return nil }
        return Self.post(uid: uid, title: title, content: content, createDate: createDate, updateDate: updateDate)
    }
}

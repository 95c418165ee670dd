import PostgresPlatform
import Testing

@Suite("PostgreSQL URLs")
struct DatabaseURLTests {
    @Test func test_aURLIsRead_andShownWithoutItsPassword() throws {
        let url = try DatabaseURL("postgres://posts:s3cret@db.example:6543/blog")
        #expect(url.host == "db.example" && url.port == 6543 && url.user == "posts" && url.password == "s3cret" && url.database == "blog")
        #expect(url.description == "postgres://posts@db.example:6543/blog" && !url.description.contains("s3cret"))
        #expect(try DatabaseURL("postgresql://me@localhost/x").port == 5432)
    }

    @Test(arguments: [
        ("http://me@h/db", "not a postgres:// URL"), ("postgres:///db", "no host"), ("postgres://h/db", "no user"),
        ("postgres://me@h", "no database"), ("postgres://me@h:0/db", "port 0"),
        ("postgres://me:pw@h/db?sslmode=require", "sslmode=require"),
    ])
    func test_whatIsWrongIsNamed_andAPasswordNeverShown(_ text: String, _ expected: String) {
        let error = #expect(throws: DatabaseURLError.self) { try DatabaseURL(text) }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.description.contains(":pw@") == false)
    }
}

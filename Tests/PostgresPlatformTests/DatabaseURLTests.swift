import PostgresPlatform
import TestSupport
import TestTraits
import Testing

@Suite("PostgreSQL URLs", .ownThread, .timeLimit(.minutes(5)))
struct DatabaseURLTests {
    @Test func test_aURLIsRead_andShownWithoutItsPassword() async throws {
        let url = try DatabaseURL("postgres://posts:s3cret@db.example:6543/blog")
        #expect(url.host == "db.example" && url.port == 6543 && url.user == "posts" && url.password == "s3cret" && url.database == "blog")
        #expect(url.description == "postgres://posts@db.example:6543/blog" && !url.description.contains("s3cret"))
        #expect(try DatabaseURL("postgresql://me@localhost/x").port == 5432)
    }

    @Test func test_tlsModes_andWhetherPostsWouldCrossANetworkInPlaintext() async throws {
        let verified = try DatabaseURL("postgres://me@db.example/x?sslmode=verify-full&sslrootcert=/etc/posts/ca.pem")
        #expect(verified.tls == .verifyFull && verified.rootCertificate == "/etc/posts/ca.pem" && !verified.isPlaintextAcrossNetwork)
        #expect(verified.description == "postgres://me@db.example:5432/x?sslmode=verify-full")
        #expect(try DatabaseURL("postgres://me@db.example/x").isPlaintextAcrossNetwork)
        #expect(try DatabaseURL("postgres://me@db.example/x?sslmode=disable").isPlaintextAcrossNetwork)
        for local in ["localhost", "127.0.0.1", "[::1]"] {
            #expect(try !DatabaseURL("postgres://me@\(local)/x").isPlaintextAcrossNetwork, "\(local)")
        }
    }

    @Test(arguments: [
        ("http://me@h/db", "not a postgres:// URL"), ("postgres:///db", "no host"), ("postgres://h/db", "no user"),
        ("postgres://me@h", "no database"), ("postgres://me@h:0/db", "port 0"),
        ("postgres://me:pw@h/db?sslmode=prefer", "sslmode=prefer is not one of disable, require, verify-ca, verify-full"),
        ("postgres://me:pw@h/db?connect_timeout=3", "'connect_timeout'"),
    ])
    func test_whatIsWrongIsNamed_andAPasswordNeverShown(_ text: String, _ expected: String) async {
        let error = #expect(throws: DatabaseURLError.self) { try DatabaseURL(text) }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.description.contains(":pw@") == false)
    }
}

import ArgumentParser
import NIOSSL
import ServiceSupport

/// TLS for the edge (NIO SSL): a certificate chain and its private key,
/// PEM files read once at start. The key file must be the user's own and
/// unreadable by others, as a CURVE secret key must. TLS 1.2 at least;
/// HTTP/1.1 over it.
enum EdgeTLS {
    struct Files: Sendable {
        let certificate: String
        let key: String
    }

    static func configuration(_ files: Files) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificate)
        } catch {
            throw ValidationError("--tls-cert \(files.certificate): not a PEM certificate chain we can read (\(error))")
        }
        guard !chain.isEmpty else { throw ValidationError("--tls-cert \(files.certificate) holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            let text = try FileSecurity.readOwnerOnly(files.key, what: "the TLS key")
            key = try NIOSSLPrivateKey(bytes: Array(text.utf8), format: .pem)
        } catch let error as ConfigurationError {
            throw ValidationError("--tls-key: \(error.description)")
        } catch {
            throw ValidationError("--tls-key \(files.key): not a PEM private key we can read (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ZeroMQ

/// CURVE key files, in the text format ZeroMQ's tools share (pyzmq's
/// `zmq.auth.load_certificate` reads them): `NAME.key` holds the public key,
/// `NAME.key_secret` (owner-only) both keys, each as a line
/// `public-key = "…"` / `secret-key = "…"` under a `curve` section.
public enum KeyFiles {
    public struct Written: Sendable {
        public let publicKey: String
        public let publicPath: String
        public let secretPath: String
    }

    /// Makes a key pair and writes NAME.key and NAME.key_secret into
    /// `directory` (made 0700 if missing). Never overwrites a key.
    public static func generate(name: String, directory: String) throws -> Written {
        guard isValidName(name) else {
            throw ConfigurationError(
                "key name '\(Escaped.line(name))' may hold only letters, digits, '.', '-' and '_' (1 to 64 of them), and may not start with '.'")
        }
        try FileSecurity.makeDirectory(directory)
        let keys = try Curve.generateKeyPair()
        let publicPath = directory + "/" + name + ".key"
        let secretPath = directory + "/" + name + ".key_secret"
        for path in [publicPath, secretPath] where FileManager.default.fileExists(atPath: path) {
            throw ConfigurationError("\(path) already exists; remove it first, or choose another name")
        }
        let header = "#   CURVE key \(name), made by `posts keys generate`\nmetadata\n    name = \"\(name)\"\ncurve\n"
        try FileSecurity.writeNew(
            secretPath, contents: header + "    public-key = \"\(keys.publicKey)\"\n    secret-key = \"\(keys.secretKey)\"\n", mode: 0o600)
        try FileSecurity.writeNew(publicPath, contents: header + "    public-key = \"\(keys.publicKey)\"\n", mode: 0o644)
        return Written(publicKey: keys.publicKey, publicPath: publicPath, secretPath: secretPath)
    }

    /// This process's key pair from a secret-key file, which must be the
    /// user's own and readable by nobody else (as ssh insists of its keys).
    public static func readSecret(_ path: String) throws -> Curve.KeyPair {
        let text = try FileSecurity.readOwnerOnly(path, what: "secret-key file")
        guard let secret = value(of: "secret-key", in: text), let publicKey = Curve.publicKey(forSecret: secret) else {
            throw ConfigurationError(
                "\(path) holds no secret-key = \"…\" line with a 40-character Z85 key; make one with `posts keys generate NAME`")
        }
        return Curve.KeyPair(publicKey: publicKey, secretKey: secret)
    }

    /// A public key given as Z85 text, or as the path of a file holding one
    /// (a NAME.key file, or a file whose one line is the key).
    public static func readPublic(_ textOrPath: String) throws -> String {
        let trimmed = textOrPath.trimmed()
        if Curve.isKey(trimmed) { return trimmed }
        guard let data = FileManager.default.contents(atPath: textOrPath) else {
            throw ConfigurationError("'\(Escaped.line(textOrPath))' is neither a 40-character Z85 public key nor a readable file")
        }
        guard let key = publicKey(in: String(decoding: data, as: UTF8.self)) else {
            throw ConfigurationError("\(textOrPath) holds no public key (a public-key = \"…\" line, or the key alone)")
        }
        return key
    }

    /// The public key in a key file's text, or nil.
    static func publicKey(in text: String) -> String? {
        if let key = value(of: "public-key", in: text) { return Curve.isKey(key) ? key : nil }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmed() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        return lines.count == 1 && Curve.isKey(lines[0]) ? lines[0] : nil
    }

    /// The quoted value of `name = "…"` on a line of its own.
    static func value(of name: String, in text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmed()
            guard trimmed.hasPrefix(name) else { continue }
            let rest = trimmed.dropFirst(name.count).trimmed()
            guard rest.hasPrefix("=") else { continue }
            return rest.dropFirst().trimmed { " \t\"'".contains($0) }
        }
        return nil
    }

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}

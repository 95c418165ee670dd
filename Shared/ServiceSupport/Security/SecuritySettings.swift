import ZeroMQ

/// Which connections use CURVE and with which keys, from flags and the
/// environment, by one rule for every executable: tcp:// (and ipc:// with
/// POSTS_CURVE_IPC) is encrypted and authenticated, or the process refuses
/// to start, unless POSTS_INSECURE / --insecure says plaintext on purpose.
public struct SecuritySettings: Sendable {
    public let security: Security
    /// The gateway's allow-list directory (gateway only).
    public let allowDirectory: String?
    /// Set when plaintext was chosen with --insecure: log it as a warning.
    public let warning: String?

    static let howToMakeKeys = "make keys with `posts keys generate NAME --dir DIR` (docs/OPERATIONS.md, \"Across hosts\")"

    /// For a process that connects to the gateway: a worker or the client.
    public static func client(
        _ settings: Settings, curveKey: String?, gatewayKey: String?, insecure: Bool,
        curveOnIPC: Bool, endpoints: [String]
    ) throws -> SecuritySettings {
        let onIPC = try curveOnIPC || settings.flag(env: "POSTS_CURVE_IPC")
        let keyPath = curveKey ?? settings.value("POSTS_CURVE_KEY")
        let serverText = gatewayKey ?? settings.value("POSTS_GATEWAY_KEY")
        let covered = endpoints.filter { Security.needsCurve($0, curveOnIPC: onIPC) }
        switch (keyPath, serverText) {
        case (let keyPath?, let serverText?):
            let security = Security(keys: try KeyFiles.readSecret(keyPath), serverKey: try KeyFiles.readPublic(serverText), curveOnIPC: onIPC)
            return SecuritySettings(security: security, allowDirectory: nil, warning: nil)
        case (nil, nil):
            return try plaintext(
                settings, covered: covered, insecure: insecure, curveOnIPC: onIPC,
                refusal:
                    "needs CURVE, and this process has no key: set POSTS_CURVE_KEY (--curve-key) to this process's secret-key file and "
                    + "POSTS_GATEWAY_KEY (--gateway-key) to the gateway's public key; \(howToMakeKeys). Or give --insecure "
                    + "(POSTS_INSECURE=1) to send plaintext that anyone on the network can read",
                warning: "carry plaintext, unauthenticated")
        case (nil, _):
            throw ConfigurationError(
                "POSTS_GATEWAY_KEY (--gateway-key) is set but POSTS_CURVE_KEY (--curve-key) is not: CURVE needs this process's own secret-key file "
                    + "too; \(howToMakeKeys)"
            )
        case (_, nil):
            throw ConfigurationError(
                "POSTS_CURVE_KEY (--curve-key) is set but POSTS_GATEWAY_KEY (--gateway-key) is not: give the gateway's public key (Z85 text, or "
                    + "its .key file)"
            )
        }
    }

    /// For the gateway, which binds: its own key, and the allow-list of
    /// public keys it admits.
    public static func gateway(
        _ settings: Settings, curveKey: String?, allow: String?, insecure: Bool,
        curveOnIPC: Bool, endpoints: [String]
    ) throws -> SecuritySettings {
        let onIPC = try curveOnIPC || settings.flag(env: "POSTS_CURVE_IPC")
        let keyPath = curveKey ?? settings.value("POSTS_CURVE_KEY")
        let allowDirectory = allow ?? settings.value("POSTS_CURVE_ALLOW")
        let covered = endpoints.filter { Security.needsCurve($0, curveOnIPC: onIPC) }
        guard let keyPath else {
            return try plaintext(
                settings, covered: covered, insecure: insecure, curveOnIPC: onIPC,
                refusal:
                    "not bound without CURVE, as anyone who can reach it could read and change every post. Set POSTS_CURVE_KEY (--curve-key) to "
                    + "the gateway's secret-key file and POSTS_CURVE_ALLOW (--curve-allow) to a directory of the public keys it admits; "
                    + "\(howToMakeKeys). Or give --insecure (POSTS_INSECURE=1) to serve plaintext to anyone",
                warning: "serve plaintext to anyone who connects")
        }
        let keys = try KeyFiles.readSecret(keyPath)
        guard let allowDirectory else {
            throw ConfigurationError(
                "POSTS_CURVE_KEY is set but POSTS_CURVE_ALLOW (--curve-allow) is not: name the directory of public keys (NAME.key files) the "
                    + "gateway admits"
            )
        }
        return SecuritySettings(security: Security(keys: keys, curveOnIPC: onIPC), allowDirectory: allowDirectory, warning: nil)
    }
}

extension SecuritySettings {
    /// No keys: fine where nothing needs CURVE; with --insecure, plaintext
    /// and a warning; else refused, naming the first endpoint and `refusal`.
    static func plaintext(
        _ settings: Settings, covered: [String], insecure: Bool, curveOnIPC: Bool,
        refusal: String, warning: String
    ) throws -> SecuritySettings {
        let none = Security(curveOnIPC: curveOnIPC)
        guard let first = covered.first else { return SecuritySettings(security: none, allowDirectory: nil, warning: nil) }
        guard try insecure || settings.flag(env: "POSTS_INSECURE") else { throw ConfigurationError("\(first): \(refusal)") }
        return SecuritySettings(security: none, allowDirectory: nil, warning: "--insecure: \(covered.joined(separator: ", ")) \(warning)")
    }
}

extension Settings {
    /// A variable's value; nil when unset or empty.
    public func value(_ name: String) -> String? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        return text
    }

    /// A yes/no variable: 1, true, yes / 0, false, no (or unset).
    public func flag(env name: String) throws -> Bool {
        guard let text = value(name) else { return false }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError("\(name)='\(Escaped.line(text))' is not 1 or 0 (true/false, yes/no)")
        }
    }
}

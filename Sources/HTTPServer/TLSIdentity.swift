import CServerTLS

/// A certificate chain and its private key as GnuTLS reads them: what the server presents in a TLS handshake.
final class TLSIdentity: @unchecked Sendable {
    /// GnuTLS's priority string: TLS 1.2 and 1.3 only, forward-secret (ECDHE) key exchange, AEAD ciphers only, and
    /// signatures without SHA-1. Both an ECDSA and an RSA certificate (an organization's own) are served.
    static let priorities = [
        "NORMAL", "-VERS-ALL", "+VERS-TLS1.3", "+VERS-TLS1.2",
        "-CIPHER-ALL", "+CHACHA20-POLY1305", "+AES-256-GCM", "+AES-128-GCM", "-MAC-ALL", "+AEAD",
        "-KX-ALL", "+ECDHE-ECDSA", "+ECDHE-RSA",
        "-GROUP-ALL", "+GROUP-X25519", "+GROUP-SECP256R1", "+GROUP-SECP384R1",
        "-SIGN-ALL", "+SIGN-ECDSA-SECP256R1-SHA256", "+SIGN-ECDSA-SECP384R1-SHA384", "+SIGN-ECDSA-SHA256",
        "+SIGN-ECDSA-SHA384", "+SIGN-RSA-PSS-RSAE-SHA256", "+SIGN-RSA-PSS-RSAE-SHA384", "+SIGN-RSA-PSS-SHA256",
        "+SIGN-RSA-SHA256", "+SIGN-RSA-SHA384", "+SIGN-EDDSA-ED25519", "%SERVER_PRECEDENCE",
    ].joined(separator: ":")

    private var loaded: OpaquePointer?

    /// Reads PEM text; throws `ServerStartError.unreadableCertificate` with GnuTLS's reason.
    init(certificatePEM: String, keyPEM: String) throws {
        var identity: OpaquePointer?
        let result = fb_tls_identity_load(certificatePEM, keyPEM, &identity)
        guard result == 0, let identity else {
            throw ServerStartError.unreadableCertificate(String(cString: fb_tls_error_text(result)))
        }
        loaded = identity
    }

    /// Gives the identity to `take` (CServerTLS, which frees it once the daemon presenting it has stopped); when
    /// `take` refuses it, this still owns it and frees it.
    func handOver(_ take: (OpaquePointer) -> Bool) -> Bool {
        guard let loaded, take(loaded) else { return false }
        self.loaded = nil
        return true
    }

    deinit {
        if let loaded { fb_tls_identity_free(loaded) }
    }
}

import Foundation

/// How the HTTP server listens and what it accepts.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: UInt16
    /// Threads that answer requests which may wait (writes, sign-in, a hub's database): a request that waits holds one.
    public var threadCount: Int
    /// Threads that answer quick reads (`RequestResponder.isQuickRead`), in turns: more than the cores only adds switching.
    public var readThreadCount = ProcessInfo.processInfo.activeProcessorCount
    /// libmicrohttpd's threads, each with its own epoll loop; they read requests and write answers, never wait for one.
    public var networkThreadCount = ProcessInfo.processInfo.activeProcessorCount
    /// The largest body taken into memory: JSON, a form's fields.
    public var maxBodyBytes: Int
    /// The largest multipart upload to one of `uploadPaths`; its files go to `uploadDirectory` as they arrive, not to
    /// memory. Any other body, multipart or not, keeps `maxBodyBytes`, so an address that takes no files cannot be
    /// used to fill the disk.
    public var maxUploadBytes: Int
    /// The addresses that take large uploads (exact paths).
    public var uploadPaths: Set<String> = []
    /// Where uploaded files are written while their request is handled (the system's temporary folder when nil).
    public var uploadDirectory: String?
    public var connectionTimeoutSeconds: Int
    public var connectionLimit: Int
    /// Connections one client address may hold at once, so one device (a broken tablet, a script) cannot take them all.
    public var connectionsPerAddress: Int
    /// Seconds a request's headers may take in total; the idle timeout alone lets a client that trickles a header line
    /// every few seconds hold its connection forever.
    public var headerTimeoutSeconds: Int
    public var tlsCertificatePEM: String?
    public var tlsKeyPEM: String?
    /// How long browsers are told to come back over HTTPS only (HSTS) when this server speaks TLS; nil sends none.
    /// A year suits an organization's own certificate; Fieldbook's own authority sends none, as HSTS would also hold
    /// for `NAME.local` on the plain-HTTP guide's port and, after `--no-tls` or a replaced authority, leave devices
    /// an error they cannot click through.
    public var strictTransportSecuritySeconds: Int? = 31_536_000
    /// How long shutdown waits for requests in flight.
    public var drainSeconds: Double

    public init(host: String = "127.0.0.1", port: UInt16 = 8080, threadCount: Int = 8,
                maxBodyBytes: Int = 10 << 20, connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 1000,
                tlsCertificatePEM: String? = nil, tlsKeyPEM: String? = nil, drainSeconds: Double = 10,
                connectionsPerAddress: Int = 64, headerTimeoutSeconds: Int = 20, maxUploadBytes: Int = 200 << 20,
                uploadDirectory: String? = nil) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.maxBodyBytes = maxBodyBytes
        self.maxUploadBytes = maxUploadBytes
        self.uploadDirectory = uploadDirectory
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.connectionsPerAddress = connectionsPerAddress
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.tlsCertificatePEM = tlsCertificatePEM
        self.tlsKeyPEM = tlsKeyPEM
        self.drainSeconds = drainSeconds
    }

    public var isTLS: Bool { tlsIdentity != nil }

    var tlsIdentity: (certificatePEM: String, keyPEM: String)? {
        guard let tlsCertificatePEM, let tlsKeyPEM else { return nil }
        return (tlsCertificatePEM, tlsKeyPEM)
    }

    /// Whether `host` (an IP address, as `--host` takes) is a loopback address, which no other device reaches:
    /// 127.0.0.0/8, ::1, or 127.x written as an IPv4-mapped IPv6 address (::ffff:127.0.0.1).
    public static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { $0[0] == 127 } }
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return (mapped && bytes[12] == 127) || (bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1)
        }
    }

    /// The address the server answers at once bound to `port`, as announced (`http://127.0.0.1:8080`; an IPv6 host in
    /// brackets).
    public func baseURL(port: UInt16) -> String {
        "\(isTLS ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// What the server asks of the application: an answer for every request, including those it could not read.
public protocol RequestResponder: Sendable {
    /// Answers a fully read request.
    func respond(to request: Request) -> Response
    /// Answers a request whose body the server refused (too large, malformed).
    func respond(to request: Request, failure: HTTPError) -> Response
    /// True for a request answered by reading alone, without waiting for anything (a page's GET): such requests take
    /// turns on the reading threads (`ServerConfiguration.readThreadCount`).
    func isQuickRead(_ request: Request) -> Bool
}

extension RequestResponder {
    public func isQuickRead(_ request: Request) -> Bool { false }
}

/// Headers every response carries unless the handler set its own.
public enum SecurityHeaders {
    public static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// `strictTransportSecuritySeconds`: the HSTS max-age, nil for no HSTS (always so over plain HTTP).
    public static func apply(to response: inout Response, strictTransportSecuritySeconds: Int?) {
        var defaults: [(String, String)] = [
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Permissions-Policy", "camera=(self), geolocation=(self), microphone=()"),
        ]
        if let strictTransportSecuritySeconds { defaults.append(("Strict-Transport-Security", "max-age=\(strictTransportSecuritySeconds)")) }
        if response.header("Cache-Control") == nil { defaults.append(("Cache-Control", "no-store")) }
        for (name, value) in defaults where response.header(name) == nil {
            response.addHeader(name, value)
        }
    }
}

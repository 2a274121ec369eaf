import CCurl
import Domain
import Foundation
import Storage

/// Why a request to the hub failed, in words an organizer can act on.
public enum HubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: the hub is down, the network is broken, or the request timed out.
    case unreachable(String)
    /// The hub no longer accepts this node's credentials; an administrator must sign the node in again.
    case unauthorized
    /// The hub answered with an error status.
    case server(status: Int, message: String)
    /// The hub answered something that is not Fieldbook's sync protocol.
    case badResponse(String)

    public var description: String {
        switch self {
        case .unreachable(let detail): "The hub could not be reached (\(detail))."
        case .unauthorized: "The hub refused this node's sign-in; an administrator must sign it in again on the sync settings page."
        case .server(let status, let message): "The hub answered \(status): \(message)"
        case .badResponse(let detail): "The hub's answer was not understood (\(detail))."
        }
    }
}

/// Tokens the hub hands out at sign-in and refresh.
public struct HubTokens: Sendable, Decodable {
    public let accessToken: String
    public let refreshToken: String

    enum CodingKeys: String, CodingKey { case accessToken = "access_token", refreshToken = "refresh_token" }
}

/// Talks to a hub's JSON API over HTTP(S), synchronously, from the sync thread.
public struct HubClient: Sendable {
    public let baseURL: URL
    let timeout: TimeInterval
    let trust: CurlTransfer.Trust

    /// `authority`: the hub's own certificate authority (PEM) kept with the link; nil trusts the system's store.
    public init(baseURL: URL, authority: String? = nil, timeout: TimeInterval = 30) {
        self.init(baseURL: baseURL, trust: authority.map { .authority($0) } ?? .system, timeout: timeout)
    }

    init(baseURL: URL, trust: CurlTransfer.Trust, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        self.trust = trust
        self.timeout = timeout
    }

    /// The client a linked node uses: its hub's own authority, if it has one.
    public init(link: HubLink, upstreamOverride: URL?) {
        self.init(baseURL: upstreamOverride ?? link.upstream, authority: link.authority)
    }

    /// Throws why the hub does not answer its health check.
    public func checkHealth() throws {
        _ = try send("GET", "api/v1/health", body: nil, token: nil)
    }

    /// The hub's own certificate authority (what its Add-a-device page offers), fetched without checking the
    /// hub's certificate: a person compares its fingerprint. Nil when the hub serves none (a certificate of the
    /// organization's, or plain HTTP).
    func ownAuthority() throws -> AuthorityCertificate? {
        do {
            return AuthorityCertificate(pem: String(decoding: try send("GET", Self.authorityPath, body: nil, token: nil), as: UTF8.self))
        } catch HubError.server(let status, _) where status == 404 {
            return nil
        }
    }

    /// Where a Fieldbook serves its own authority (WebUI's Paths.authorityPEM).
    static let authorityPath = "settings/devices/fieldbook-authority.pem"

    /// Makes this node's own sign-in at the hub (a node credential), with a person's email and password used once.
    public func makeNodeCredential(email: String, password: String, nodeName: String) throws -> HubTokens {
        try decode(send("POST", "api/v1/auth/login", body: encode(["email": email, "password": password, "node_name": nodeName]), token: nil))
    }

    public func refresh(_ refreshToken: String) throws -> HubTokens {
        try decode(send("POST", "api/v1/auth/refresh", body: encode(["refresh_token": refreshToken]), token: nil))
    }

    public func push(_ request: PushRequest, token: String) throws -> PushResponse {
        try read(send("POST", "api/v1/sync/push", body: Data(request.jsonBytes), token: token), SyncWireReader.pushResponse)
    }

    public func changes(after cursor: Int64, limit: Int, token: String) throws -> ChangePage {
        try read(send("GET", "api/v1/sync/changes?after=\(cursor)&limit=\(limit)", body: nil, token: token), SyncWireReader.changePage)
    }

    /// A long poll: the changes after `cursor`, held by the hub up to `wait` seconds until there are some. The client's
    /// own timeout must outlast the wait (see `longPolling(wait:)`).
    public func changes(after cursor: Int64, limit: Int, wait: Int, token: String) throws -> ChangePage {
        // `wait` first, so a proxy (or a test) can tell long polls from ordinary pulls by the start of the path.
        try read(send("GET", "api/v1/sync/changes?wait=\(wait)&after=\(cursor)&limit=\(limit)", body: nil, token: token),
                 SyncWireReader.changePage)
    }

    /// Which of these photo files the hub lacks (at most 500 per call).
    public func photoFilesMissing(_ hashes: [String], token: String) throws -> [String] {
        struct Answer: Decodable { let missing: [String] }
        let answer: Answer = try decode(send("POST", "api/v1/sync/photo-files/missing", body: encode(["sha256": hashes]), token: token))
        return answer.missing
    }

    /// Sends one photo file; the hub keeps it only if its bytes have this hash.
    public func putPhotoFile(_ sha256: String, _ bytes: Data, token: String) throws {
        _ = try send("PUT", "api/v1/sync/photo-files/\(sha256)", body: bytes, contentType: "image/jpeg", token: token)
    }

    /// One photo file's bytes, or nil when the hub does not hold it (yet).
    public func photoFile(_ sha256: String, token: String) throws -> Data? {
        do {
            return try send("GET", "api/v1/sync/photo-files/\(sha256)", body: nil, token: token)
        } catch HubError.server(let status, _) where status == 404 {
            return nil
        }
    }

    /// The same hub, with a timeout that outlasts a long poll of `wait` seconds.
    public func longPolling(wait: Int) -> HubClient { HubClient(baseURL: baseURL, trust: trust, timeout: TimeInterval(wait) + 15) }

    /// The same hub, checked against `trust`.
    func trusting(_ trust: CurlTransfer.Trust) -> HubClient { HubClient(baseURL: baseURL, trust: trust, timeout: timeout) }

    private func send(_ method: String, _ path: String, body: Data?, contentType: String = "application/json", token: String?) throws -> Data {
        guard let url = URL(string: path, relativeTo: baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")) else {
            throw HubError.badResponse("bad URL \(path)")
        }
        var headers = ["Accept: application/json"]
        if body != nil { headers.append("Content-Type: \(contentType)") }
        if let token { headers.append("Authorization: Bearer \(token)") }
        let answer: CurlTransfer.Answer
        do {
            answer = try CurlTransfer.perform(method, url.absoluteString, headers: headers, body: body, idleTimeout: timeout, trust: trust)
        } catch let failure as CurlTransfer.Failure {
            throw explained(failure)
        }
        switch answer.status {
        case 200..<300: return answer.body
        case 401: throw HubError.unauthorized
        default: throw HubError.server(status: answer.status, message: Self.errorMessage(answer.body))
        }
    }

    private func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601withFractions
        return try encoder.encode(value)
    }

    /// A failed request in words that say what to do: a certificate not from the trusted authority, or an http://
    /// address that reaches a port speaking TLS.
    private func explained(_ failure: CurlTransfer.Failure) -> HubError {
        if failure.isUntrustedCertificate, case .authority(let pem) = trust {
            let fingerprint = AuthorityCertificate(pem: pem)?.fingerprint ?? "unreadable"
            return .unreachable("""
                the hub's certificate is not from the certificate authority this node trusted when it was linked                 (SHA-256 fingerprint \(fingerprint)). If the hub's authority was replaced, compare the fingerprint on                 the hub's Add a device page and link again
                """)
        }
        if baseURL.scheme == "http", Self.noHTTPAnswer.contains(failure.code), let secure = httpsAddress,
           (try? HubClient(baseURL: secure, trust: .unchecked, timeout: min(timeout, 15)).checkHealth()) != nil {
            return .unreachable("\(failure.message); the hub speaks HTTPS there: use \(secure.absoluteString) as its address")
        }
        return .unreachable(failure.message)
    }

    /// What libcurl says when a plain-HTTP request meets a TLS server.
    private static let noHTTPAnswer: [CURLcode] = [CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL]

    /// The same address with https://.
    private var httpsAddress: URL? {
        var parts = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        parts?.scheme = "https"
        return parts?.url
    }

    private func decode<T: Decodable>(_ data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601withFractions
        do { return try decoder.decode(T.self, from: data) } catch { throw HubError.badResponse("\(T.self): \(error)") }
    }

    /// The wire's big answers (change pages, push results) are read by `SyncWireReader`, which is faster than JSONDecoder (scripts/benchmark-libraries.sh wire).
    private func read<T>(_ data: Data, _ reader: (Data) throws -> T) throws -> T {
        do { return try reader(data) } catch { throw HubError.badResponse("\(T.self): \(error)") }
    }

    private static func errorMessage(_ data: Data) -> String {
        struct Envelope: Decodable { struct Body: Decodable { let message: String }; let error: Body }
        return (try? JSONDecoder().decode(Envelope.self, from: data).error.message) ?? String(decoding: data.prefix(200), as: UTF8.self)
    }
}

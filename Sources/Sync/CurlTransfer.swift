import CCurl
import Foundation

/// One HTTP request through libcurl's easy interface, on the calling thread: the only code that calls libcurl.
///
/// Why not URLSession: on Linux it drives libcurl through dispatch sources, and a node pushing spent more CPU waking
/// its dispatch threads than on anything else. Connections stay open between requests: a
/// finished handle waits in a pool, and libcurl reuses its connection to the same hub.
enum CurlTransfer {
    struct Answer {
        let status: Int
        let body: Data
    }

    /// A request that got no HTTP answer, in libcurl's words ("Connection refused", "Operation timed out ...").
    struct Failure: Error {
        let message: String
        var code = CURLE_OK

        /// The server's certificate did not check out against the trusted authorities.
        var isUntrustedCertificate: Bool { code == CURLE_PEER_FAILED_VERIFICATION }
    }

    /// Which certificate authorities a server's certificate is checked against.
    enum Trust: Sendable {
        /// The system's store: a server with an organization's or a public certificate.
        case system
        /// Only this authority (PEM): a hub that serves with Fieldbook's own.
        case authority(String)
        /// None: only to fetch a hub's own authority, which a person then compares by its fingerprint.
        case unchecked
    }

    /// Sends `body` (if any) with `method`; an answer that stalls for `idleTimeout` seconds (nothing received or sent)
    /// fails, as URLSession's request timeout did. Proxies come from the environment (http_proxy, no_proxy), as before.
    static func perform(_ method: String, _ url: String, headers: [String], body: Data?, idleTimeout: TimeInterval,
                        trust: Trust = .system) throws -> Answer {
        guard let curl = library else {
            throw Failure(message: fieldbook_curl_failure().map { String(cString: $0) } ?? "libcurl could not be opened")
        }
        guard let handle = HandlePool.shared.take(curl) else { throw Failure(message: "libcurl could not make a handle") }
        defer { HandlePool.shared.give(handle, curl) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        // No "Expect: 100-continue" round trip before a large push.
        for header in headers + ["Expect:"] { headerList = curl.slist_append(headerList, header) }
        defer { curl.slist_free_all(headerList) }
        let received = Received()
        let context = Unmanaged.passRetained(received)
        defer { context.release() }
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        // Whole seconds, at most a day (libcurl counts them in milliseconds).
        let seconds = idleTimeout.isFinite ? Int(min(max(idleTimeout, 1), 86_400).rounded(.up)) : 86_400
        let code: CURLcode = errorText.withUnsafeMutableBufferPointer { errorBuffer in
            _ = fieldbook_curl_set_string(handle, CURLOPT_URL, url)
            _ = fieldbook_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = fieldbook_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, seconds)
            _ = fieldbook_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = fieldbook_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, seconds)
            // A redirected read is followed; a redirected write is not (it would lose its body or change its
            // method): it fails with the redirect's status.
            _ = fieldbook_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, method == "GET" ? 1 : 0)
            _ = fieldbook_curl_set_long(handle, CURLOPT_MAXREDIRS, 5)
            _ = fieldbook_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
            _ = fieldbook_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            _ = fieldbook_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
            _ = fieldbook_curl_set_write(handle, { data, size, count, context in
                guard let data, let context else { return 0 }
                Unmanaged<Received>.fromOpaque(context).takeUnretainedValue().append(data, size * count)
                return size * count
            })
            _ = fieldbook_curl_set_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
            set(trust, on: handle)
            guard let body else {
                _ = fieldbook_curl_set_long(handle, CURLOPT_HTTPGET, 1)
                if method != "GET" { _ = fieldbook_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method) }
                return curl.easy_perform(handle)
            }
            // libcurl reads the body from this memory during the transfer: it stays valid until perform returns.
            return body.withUnsafeBytes { bytes in
                _ = fieldbook_curl_set_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(emptyBody.utf8Start))
                _ = fieldbook_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                if method != "POST" { _ = fieldbook_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method) }
                return curl.easy_perform(handle)
            }
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let words = detail.isEmpty ? curl.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)" : detail
            throw Failure(message: code == CURLE_OPERATION_TIMEDOUT ? "nothing for \(seconds) s: \(words)" : words, code: code)
        }
        return Answer(status: fieldbook_curl_response_code(handle), body: received.data)
    }

    private static func set(_ trust: Trust, on handle: UnsafeMutableRawPointer) {
        switch trust {
        case .system: break
        case .authority(let pem):
            var bytes = Array(pem.utf8)
            _ = fieldbook_curl_set_blob(handle, CURLOPT_CAINFO_BLOB, &bytes, bytes.count)
            // The authority alone: not the system's store beside it.
            _ = fieldbook_curl_set_pointer(handle, CURLOPT_CAPATH, nil)
        case .unchecked:
            _ = fieldbook_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
            _ = fieldbook_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
        }
    }

    /// libcurl's functions, opened and initialized by the first request (CCurl.h says why it is not linked). Never
    /// changed once set, so any thread may read it.
    nonisolated(unsafe) private static let library: FieldbookCurl? = fieldbook_curl_open()?.pointee
    private static let emptyBody: StaticString = ""

    /// The answer's bytes as libcurl hands them over.
    private final class Received {
        var data = Data()

        func append(_ bytes: UnsafeMutablePointer<CChar>, _ count: Int) {
            data.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    /// Idle handles, each keeping its connection to the hub open for the next request.
    private final class HandlePool: @unchecked Sendable {
        static let shared = HandlePool()
        /// The sync thread, the live-changes listener and photo transfers: a few handles at most are in use at once.
        private static let kept = 4
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []

        func take(_ curl: FieldbookCurl) -> UnsafeMutableRawPointer? {
            lock.withLock { idle.popLast() } ?? curl.easy_init()
        }

        func give(_ handle: UnsafeMutableRawPointer, _ curl: FieldbookCurl) {
            // Forget the finished request's pointers (its headers, buffers and context are freed); the connection stays.
            curl.easy_reset(handle)
            let extra: UnsafeMutableRawPointer? = lock.withLock {
                guard idle.count < Self.kept else { return handle }
                idle.append(handle)
                return nil
            }
            if let extra { curl.easy_cleanup(extra) }
        }
    }
}

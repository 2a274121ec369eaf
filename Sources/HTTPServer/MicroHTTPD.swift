// The only Swift file that calls libmicrohttpd: it turns C callbacks and results into Swift values and errors.
import CMicroHTTPD
import CServerTLS
import Foundation

/// Errors from starting the C daemon.
public enum ServerStartError: Error, CustomStringConvertible {
    case invalidHost(String)
    case cannotListen(host: String, port: UInt16)
    /// The certificate or its key could not be read; the text is GnuTLS's reason.
    case unreadableCertificate(String)
    /// Every slot for a TLS daemon's certificate in this process is taken (CServerTLS's FB_TLS_SLOTS).
    case tooManyTLSServers

    public var description: String {
        switch self {
        case .invalidHost(let host): "'\(host)' is not an IP address; use e.g. 127.0.0.1, 0.0.0.0 or ::1"
        case .cannotListen(let host, let port): "could not listen on \(host):\(port) (port in use?)"
        case .unreadableCertificate(let reason): "the TLS certificate or its key cannot be used: \(reason)"
        case .tooManyTLSServers: "too many servers in this process serve TLS at once"
        }
    }
}

/// State of one request while its body arrives; owned by libmicrohttpd's con_cls slot.
final class PendingRequest: @unchecked Sendable {
    let method: String
    let url: String
    /// Every header field as libmicrohttpd parsed it, in order and with repeated names (for `MessageFraming`).
    let fields: [HeaderField]
    /// The header values by lower-cased name, the last of a repeated name winning: what the request carries.
    let headers: [String: String]
    let startedAt = DispatchTime.now()
    var postProcessor: OpaquePointer?
    var form = Parameters()
    /// The multipart body's files, on disk while the request lasts.
    var uploads: UploadSpool?
    var body: [UInt8] = []
    var received = 0
    /// The most this body may hold: an upload's limit for multipart forms, the body limit otherwise.
    var limit = 0
    /// Bytes of form values held in memory, which stay under the body limit even beside a large upload's files.
    var formBytes = 0
    var formLimit = 0
    var failure: HTTPError?
    var answered = false
    /// The answer a worker thread made while the connection was suspended, queued once libmicrohttpd calls back.
    private var ready: Response?
    private let readyLock = NSLock()

    func setReady(_ response: Response) { readyLock.withLock { ready = response } }

    func takeReady() -> Response? { readyLock.withLock { defer { ready = nil }; return ready } }

    init(method: String, url: String, headers: ParsedHeaders) {
        self.method = method
        self.url = url
        fields = headers.fields
        self.headers = headers.byName
    }
}

/// A running libmicrohttpd daemon that hands complete requests to an `HTTPServer`.
final class MicroHTTPDaemon: @unchecked Sendable {
    private var daemon: OpaquePointer?
    private let retainedServer: Unmanaged<HTTPServer>
    let port: UInt16
    /// Kept open until the daemon has stopped: it names the daemon's TLS identity (CServerTLS) until then.
    private let listenSocket: Int32

    init(server: HTTPServer, configuration: ServerConfiguration) throws {
        let identity = try configuration.tlsIdentity.map { try TLSIdentity(certificatePEM: $0.certificatePEM, keyPEM: $0.keyPEM) }
        retainedServer = Unmanaged.passRetained(server)
        let context = retainedServer.toOpaque()
        var startError: Int32 = 0
        let started: OpaquePointer? = configuration.host.withCString { host in
            TLSIdentity.priorities.withCString { priorities in
                var settings = fb_daemon_settings(
                    host: host, port: configuration.port,
                    thread_pool_size: UInt32(configuration.networkThreadCount),
                    connection_timeout_seconds: UInt32(configuration.connectionTimeoutSeconds),
                    connection_limit: UInt32(configuration.connectionLimit),
                    per_ip_connection_limit: UInt32(configuration.connectionsPerAddress),
                    connection_memory_limit: 128 * 1024,
                    tls_certificate_callback: identity == nil ? nil : fb_tls_certificate_callback(),
                    tls_priorities: priorities)
                return fb_start_daemon(&settings, accessHandler, context, requestCompleted, context,
                                       connectionNotified, context, &startError)
            }
        }
        guard let started else {
            retainedServer.release()
            if startError == 1 { throw ServerStartError.invalidHost(configuration.host) }
            throw ServerStartError.cannotListen(host: configuration.host, port: configuration.port)
        }
        daemon = started
        port = fb_daemon_port(started)
        listenSocket = fb_daemon_listen_socket(started)
        do {
            if let identity { try present(identity) }
        } catch {
            stop()
            throw error
        }
    }

    /// Presents `identity` from the next TLS handshake on; connections already open keep theirs.
    func present(_ identity: TLSIdentity) throws {
        guard identity.handOver({ fb_tls_present(listenSocket, $0) == 0 }) else { throw ServerStartError.tooManyTLSServers }
    }

    /// Stops accepting connections; requests already in progress carry on. The listening socket is shut down, not
    /// closed: the kernel then refuses new connections at once instead of queueing them for the whole drain, and the
    /// descriptor stays this daemon's (its TLS identity is keyed by it) until `stop`.
    func quiesce() {
        guard let daemon else { return }
        _ = MHD_quiesce_daemon(daemon)
        if listenSocket >= 0 { _ = shutdown(listenSocket, Int32(SHUT_RDWR)) }
    }

    /// Stops every thread and frees the daemon.
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        _ = MHD_quiesce_daemon(daemon) // so that the socket stays open (and this daemon's) until forgotten below
        MHD_stop_daemon(daemon)
        fb_tls_forget(listenSocket)
        if listenSocket >= 0 { close(listenSocket) }
        retainedServer.release()
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

// MARK: - Callbacks

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadSize, conCls in
    guard let cls, let connection, let conCls, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = conCls.pointee else {
        server.connectionWatch.headersArrived(Int(bitPattern: connection))
        let pending = PendingRequest(method: string(method), url: string(url), headers: parsedHeaders(connection))
        conCls.pointee = Unmanaged.passRetained(pending).toOpaque()
        server.requestStarted()
        if let refusal = MessageFraming.refusal(pending.fields, version: string(version)) {
            return refuseAtOnce(pending, refusal, connection: connection, server: server)
        }
        return begin(pending, connection: connection, server: server)
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if pending.answered {
        // Called again once a worker resumed the connection: its answer is ready.
        if let response = pending.takeReady() { return queue(response, on: connection, server: server) }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    if uploadSize.pointee > 0 {
        receive(pending, data: uploadData, count: uploadSize.pointee)
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    finishBody(pending)
    return answer(pending, connection: connection, server: server)
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
    guard let cls, let conCls, let existing = conCls.pointee else { return }
    if let connection {
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connectionWatch.answered(Int(bitPattern: connection))
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeRetainedValue()
    if let processor = pending.postProcessor { _ = MHD_destroy_post_processor(processor) }
    // The uploaded files go now, not whenever the worker that answered lets go of the request.
    pending.uploads = nil
    conCls.pointee = nil
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().requestFinished()
}

/// Connections opening and closing, for the deadline on their request headers and for streams whose client left.
private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, event in
    guard let cls, let connection else { return }
    let watch = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connectionWatch
    if event.rawValue == 0 { // MHD_CONNECTION_NOTIFY_STARTED
        watch.opened(Int(bitPattern: connection), socket: fb_connection_socket(connection))
    } else {
        watch.closed(Int(bitPattern: connection))
    }
}

/// First call for a request: refuse an announced oversized body at once, set up the form parser.
private func begin(_ pending: PendingRequest, connection: OpaquePointer, server: HTTPServer) -> MHD_Result {
    let configuration = server.configuration
    let contentType = pending.headers["content-type"]?.lowercased() ?? ""
    let isMultipart = contentType.hasPrefix("multipart/form-data")
    let takesUploads = isMultipart && configuration.uploadPaths.contains(pending.url)
    pending.limit = takesUploads ? max(configuration.maxUploadBytes, configuration.maxBodyBytes) : configuration.maxBodyBytes
    pending.formLimit = configuration.maxBodyBytes
    if let length = pending.headers["content-length"].flatMap(Int.init), length > pending.limit {
        pending.failure = .bodyTooLarge(limit: pending.limit)
        return answer(pending, connection: connection, server: server)
    }
    if isMultipart {
        pending.uploads = UploadSpool(directory: configuration.uploadDirectory ?? NSTemporaryDirectory())
    }
    if contentType.hasPrefix("application/x-www-form-urlencoded") || isMultipart {
        let context = Unmanaged.passUnretained(pending).toOpaque()
        pending.postProcessor = MHD_create_post_processor(connection, 64 * 1024, postIterator, context)
        if pending.postProcessor == nil { pending.failure = .malformedBody("the form encoding is missing its boundary") }
    }
    return MHD_Result.YES
}

private func receive(_ pending: PendingRequest, data: UnsafePointer<CChar>?, count: Int) {
    guard pending.failure == nil, let data else { return }
    pending.received += count
    if pending.received > pending.limit {
        pending.failure = .bodyTooLarge(limit: pending.limit)
        return
    }
    if let processor = pending.postProcessor {
        if MHD_post_process(processor, data, count) == MHD_Result.NO {
            pending.failure = .malformedBody("the form encoding is not valid")
        }
    } else {
        data.withMemoryRebound(to: UInt8.self, capacity: count) { pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
    }
}

/// Flushes the parser: a trailing empty value is only delivered when the processor is destroyed.
private func finishBody(_ pending: PendingRequest) {
    guard let processor = pending.postProcessor else { return }
    pending.postProcessor = nil
    if MHD_destroy_post_processor(processor) == MHD_Result.NO, pending.failure == nil {
        pending.failure = .malformedBody("the form ended in the middle of a field")
    }
}

private let postIterator: MHD_PostDataIterator = { cls, _, key, filename, contentType, _, data, offset, size in
    guard let cls else { return MHD_Result.NO }
    let pending = Unmanaged<PendingRequest>.fromOpaque(cls).takeUnretainedValue()
    guard pending.failure == nil else { return MHD_Result.YES }
    let name = string(key)
    let bytes = UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : size)
    if let filename, let uploads = pending.uploads {
        do {
            if offset == 0 { try uploads.begin(fieldName: name, filename: String(cString: filename), contentType: contentType.map { String(cString: $0) }) }
            try uploads.append(bytes)
        } catch {
            pending.failure = (error as? UploadSpoolError)?.httpError ?? UploadSpoolError.cannotStore.httpError
        }
    } else {
        // Form values stay in memory, so even in a large upload they stay under the body limit.
        pending.formBytes += bytes.count
        if pending.formBytes > pending.formLimit {
            pending.failure = .bodyTooLarge(limit: pending.formLimit)
            return MHD_Result.YES
        }
        pending.form.appendChunk(name, formText(Array(bytes)), continuing: offset > 0)
    }
    return MHD_Result.YES
}

/// A form value as text. Like an HTML parser, it shows bad UTF-8 and U+0000 as U+FFFD: a browser never sends a NUL
/// from what a person typed, and SQLite text read back would stop at one, so a stored value would silently shrink.
private func formText(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
}

/// Builds the request and hands it to a worker thread, with the connection suspended until its answer is ready. A body
/// refused while it arrived is answered the same way (its error page may look up the session), and libmicrohttpd
/// discards the rest of it.
private func answer(_ pending: PendingRequest, connection: OpaquePointer, server: HTTPServer) -> MHD_Result {
    pending.answered = true
    let request = makeRequest(pending, connection: connection, isTLS: server.configuration.isTLS)
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(connection)
    server.answerLater(request, failure: pending.failure, startedAt: pending.startedAt) { response in
        pending.setReady(response)
        MHD_resume_connection(suspended.connection)
    }
    return MHD_Result.YES
}

/// Answers from the headers alone, in this first call: libmicrohttpd then reads no body and no further request from
/// the connection, and closes it once the answer is sent. A worker's answer comes later, once libmicrohttpd has
/// begun reading the body its own way, and a kept-alive connection would go on to read what follows as a new request.
private func refuseAtOnce(_ pending: PendingRequest, _ refusal: HTTPError, connection: OpaquePointer, server: HTTPServer) -> MHD_Result {
    pending.answered = true
    let request = makeRequest(pending, connection: connection, isTLS: server.configuration.isTLS)
    return queue(server.refuseAtOnce(request, refusal, startedAt: pending.startedAt), on: connection, server: server)
}

/// A suspended connection, valid until it is resumed: libmicrohttpd neither times out nor frees a suspended one.
private struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer

    init(_ connection: OpaquePointer) { self.connection = connection }
}

private func makeRequest(_ pending: PendingRequest, connection: OpaquePointer, isTLS: Bool) -> Request {
    let headers = pending.headers
    let query = queryParameters(connection)
    var address = [CChar](repeating: 0, count: 64)
    fb_client_address(connection, &address, address.count)
    let method = HTTPMethod(rawValue: pending.method.uppercased()) ?? .options
    // libmicrohttpd has already cut the query string off and percent-decoded the path, so a "?" here came from %3F.
    let path = pending.url
    return Request(method: method, path: path.isEmpty ? "/" : path, query: query, headers: headers,
                   cookies: headers["cookie"].map(Cookie.parse(header:)) ?? [:], form: pending.form,
                   files: pending.uploads?.files() ?? [], body: pending.body,
                   remoteAddress: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                   isTLS: isTLS)
}

private func queue(_ response: Response, on connection: OpaquePointer, server: HTTPServer) -> MHD_Result {
    if let stream = response.stream {
        server.connectionWatch.streaming(Int(bitPattern: connection)) { stream.close() }
    }
    let created: OpaquePointer? = if let stream = response.stream {
        streamingResponse(stream, connection: connection)
    } else if let file = response.file {
        fileResponse(file)
    } else {
        response.body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
    guard let mhdResponse = created else { return MHD_Result.NO }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    let result = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
    MHD_destroy_response(mhdResponse)
    return result
}

/// libmicrohttpd owns the descriptor from here and closes it with the response.
private func fileResponse(_ file: OpenFile) -> OpaquePointer? {
    guard let descriptor = file.take() else { return nil }
    guard let response = MHD_create_response_from_fd(file.size, descriptor) else {
        close(descriptor)
        return nil
    }
    return response
}

// MARK: - Streaming responses

/// Ties an `EventStream` to the connection it feeds, for the content reader and the free callback.
private final class StreamedConnection: @unchecked Sendable {
    let stream: EventStream
    /// Only used to park and wake; valid until libmicrohttpd frees the response (see `streamFinished`).
    let connection: OpaquePointer

    init(stream: EventStream, connection: OpaquePointer) {
        self.stream = stream
        self.connection = connection
    }
}

/// Returning 0 bytes from the reader means "no data yet", but with MHD's internal polling threads that makes
/// the connection busy-wait. So an empty stream suspends its connection instead (it leaves the epoll set and
/// costs no thread and no CPU), and `send`/`close` resume it. One pool thread serves any number of streams.
private func streamingResponse(_ stream: EventStream, connection: OpaquePointer) -> OpaquePointer? {
    let streamed = StreamedConnection(stream: stream, connection: connection)
    stream.attach(waker: { MHD_resume_connection(streamed.connection) })
    let context = Unmanaged.passRetained(streamed).toOpaque()
    // MHD_SIZE_UNKNOWN (not imported by Swift): the body is sent chunked until the reader reports its end.
    guard let created = MHD_create_response_from_callback(UInt64.max, 16_384, streamReader, context, streamFinished) else {
        stream.attach(waker: nil)
        Unmanaged<StreamedConnection>.fromOpaque(context).release()
        stream.close()
        return nil
    }
    return created
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 } // MHD_CONTENT_READER_END_WITH_ERROR
    let streamed = Unmanaged<StreamedConnection>.fromOpaque(cls).takeUnretainedValue()
    switch streamed.stream.next(maxBytes: max, park: { MHD_suspend_connection(streamed.connection) }) {
    case .bytes(let bytes):
        UnsafeMutableRawBufferPointer(start: buffer, count: max).copyBytes(from: bytes)
        return bytes.count
    case .parked:
        return 0
    case .end:
        return -1 // MHD_CONTENT_READER_END_OF_STREAM
    case .failed:
        return -2 // MHD_CONTENT_READER_END_WITH_ERROR: the connection is cut without the final chunk
    }
}

/// The response is freed when the connection is done with it (finished, client gone, or server stopping).
private let streamFinished: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let streamed = Unmanaged<StreamedConnection>.fromOpaque(cls).takeRetainedValue()
    streamed.stream.attach(waker: nil)
    streamed.stream.close()
}

/// A request's header fields, read from libmicrohttpd once in the handler's first call.
struct ParsedHeaders {
    var fields: [HeaderField] = []
    var byName: [String: String] = [:]
}

private func parsedHeaders(_ connection: OpaquePointer) -> ParsedHeaders {
    var parsed = ParsedHeaders()
    withUnsafeMutablePointer(to: &parsed) { pointer in
        _ = MHD_get_connection_values(connection, .HEADER_KIND, { cls, _, key, value in
            guard let cls else { return MHD_Result.NO }
            let field = HeaderField(name: string(key), value: string(value))
            let parsed = cls.assumingMemoryBound(to: ParsedHeaders.self)
            parsed.pointee.fields.append(field)
            parsed.pointee.byName[field.name.lowercased()] = field.value
            return MHD_Result.YES
        }, pointer)
    }
    return parsed
}

private func queryParameters(_ connection: OpaquePointer) -> Parameters {
    var query = Parameters()
    withUnsafeMutablePointer(to: &query) { pointer in
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { cls, _, key, value in
            guard let cls else { return MHD_Result.NO }
            cls.assumingMemoryBound(to: Parameters.self).pointee.append(string(key), string(value))
            return MHD_Result.YES
        }, pointer)
    }
    return query
}

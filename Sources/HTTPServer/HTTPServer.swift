import Dispatch
import Foundation
import Logging
import Synchronization

/// The embedded web server: libmicrohttpd underneath, whole requests in, whole or streamed responses out.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    private let responder: RequestResponder
    private let logger: Logger
    private let inFlight = Atomic<Int>(0)
    private let daemon = Mutex<MicroHTTPDaemon?>(nil)
    private let openStreams = OpenStreams()
    private let workers = Mutex<RequestWorkers?>(nil)
    let connectionWatch: ConnectionWatch

    public init(configuration: ServerConfiguration, responder: RequestResponder, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        connectionWatch = ConnectionWatch(headerSeconds: configuration.headerTimeoutSeconds)
    }

    /// Starts listening; returns the bound port (the real one when configured with port 0).
    @discardableResult
    public func start() throws -> UInt16 {
        openStreams.reopen()
        workers.withLock { $0 = RequestWorkers(readThreads: configuration.readThreadCount, otherThreads: configuration.threadCount) }
        let started: MicroHTTPDaemon
        do {
            started = try MicroHTTPDaemon(server: self, configuration: configuration)
        } catch {
            stopWorkers()
            throw error
        }
        daemon.withLock { $0 = started }
        connectionWatch.start()
        logger.info("listening", metadata: ["address": "\(configuration.host):\(started.port)",
                                            "threads": "\(configuration.networkThreadCount) network, \(configuration.readThreadCount) reading, \(configuration.threadCount) other",
                                            "tls": "\(configuration.isTLS)",
                                            "per-address": "\(configuration.connectionsPerAddress)",
                                            "header-timeout": "\(configuration.headerTimeoutSeconds)s"])
        return started.port
    }

    public var port: UInt16 { daemon.withLock { $0?.port ?? 0 } }

    /// Presents a new certificate and key from the next TLS handshake on, without closing the listening socket or the
    /// connections already open (a renewed certificate). The server must have been started with TLS.
    public func present(certificatePEM: String, keyPEM: String) throws {
        precondition(configuration.isTLS, "a certificate is presented by a server started with TLS")
        let identity = try TLSIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM)
        try daemon.withLock { try $0?.present(identity) }
    }

    /// Stops accepting connections, ends open streams, lets requests in flight finish (up to `drainSeconds`), then stops.
    public func stop() {
        guard let running = daemon.withLock({ current -> MicroHTTPDaemon? in defer { current = nil }; return current }) else { return }
        running.quiesce()
        // Before draining: a stream never finishes by itself, and a parked one must be woken before MHD_stop_daemon.
        openStreams.closeAll()
        let deadline = Date().addingTimeInterval(configuration.drainSeconds)
        while inFlight.load(ordering: .acquiring) > 0 && Date() < deadline {
            usleep(10_000)
        }
        // Requests still being answered finish and resume their connections before the daemon goes.
        stopWorkers()
        running.stop()
        connectionWatch.stop()
        logger.info("stopped")
    }

    private func stopWorkers() {
        workers.withLock { current -> RequestWorkers? in defer { current = nil }; return current }?.stop()
    }

    func requestStarted() { inFlight.add(1, ordering: .relaxed) }
    func requestFinished() { inFlight.subtract(1, ordering: .releasing) }

    /// Requests currently being read or answered (open streams included).
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    public var openStreamCount: Int { openStreams.count }

    /// Answers `request` (or its `failure`) on a worker thread and hands the answer to `done` there; once the server is
    /// stopping, `done` gets a refusal at once.
    func answerLater(_ request: Request, failure: HTTPError?, startedAt: DispatchTime,
                     _ done: @escaping @Sendable (Response) -> Void) {
        let job = RequestJob(answer: { [self] in done(respond(to: request, failure: failure, startedAt: startedAt)) },
                             refuse: { [self] in done(respond(to: request, failure: .stopping, startedAt: startedAt)) })
        guard let workers = workers.withLock({ $0 }) else { return job.refuse() }
        workers.run(quickRead: failure == nil && responder.isQuickRead(request), job)
    }

    func respond(to request: Request, failure: HTTPError?, startedAt: DispatchTime) -> Response {
        finished(failure.map { responder.respond(to: request, failure: $0) } ?? responder.respond(to: request),
                 for: request, startedAt: startedAt)
    }

    /// The answer to a request refused from its headers, made on the network thread that read them: plain text, as
    /// no browser sends such a request, so no page is rendered and no session looked up. `Connection: close` says
    /// what the server does next.
    func refuseAtOnce(_ request: Request, _ refusal: HTTPError, startedAt: DispatchTime) -> Response {
        var response = Response.text(refusal.publicMessage, status: refusal.status)
        response.setHeader("Connection", "close")
        return finished(response, for: request, startedAt: startedAt)
    }

    private func finished(_ answer: Response, for request: Request, startedAt: DispatchTime) -> Response {
        var response = answer
        SecurityHeaders.apply(to: &response, strictTransportSecuritySeconds: configuration.isTLS ? configuration.strictTransportSecuritySeconds : nil)
        if let stream = response.stream { openStreams.register(stream) }
        let micros = (DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1000
        logger.info("\(request.method.rawValue) \(request.path) \(response.status.code)", metadata: [
            "client": "\(request.remoteAddress)", "bytes": response.stream == nil ? "\(response.file?.size ?? response.body.count)" : "stream",
            "µs": "\(micros)",
        ])
        return response
    }
}

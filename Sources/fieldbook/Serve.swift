import App
import ArgumentParser
import Dispatch
import Foundation
import HTTPServer

/// `fieldbook serve`: run the web app until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve Fieldbook (the default command).")

    @OptionGroup var common: CommonOptions

    @Option(help: "Address to listen on; 0.0.0.0 serves the LAN (env FIELDBOOK_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port; 0 picks a free one (env FIELDBOOK_PORT; default 8080).")
    var port: UInt16?

    @Option(help: "Use this URL for the linked hub instead of the one saved by `fieldbook link` (env FIELDBOOK_UPSTREAM).")
    var upstream: String?

    @Option(help: "Seconds between automatic syncs with the hub (env FIELDBOOK_SYNC_INTERVAL; default: the settings page's, 300).")
    var syncInterval: Int?

    @Option(help: "Worker threads (env FIELDBOOK_THREADS; default 4 per core, at least 8).")
    var threads: Int?

    @Option(help: "Largest request body accepted, in bytes (env FIELDBOOK_MAX_BODY; default 10485760).")
    var maxBody: Int?

    @Option(help: "PEM certificate file: serve HTTPS (env FIELDBOOK_TLS_CERT).")
    var tlsCert: String?

    @Option(help: "PEM private key file for --tls-cert (env FIELDBOOK_TLS_KEY).")
    var tlsKey: String?

    func run() async throws {
        let environment = Environment()
        let configuration = try makeConfiguration(environment)
        // libcurl (under URLSession) would send even loopback hub requests through http_proxy.
        setenv("no_proxy", "127.0.0.1,localhost,::1", 0)
        let logger = common.makeLogger(environment: environment)
        let app = try await FieldbookApp.make(configuration, logger: logger)
        try app.start(announce: announce)
        await waitForTerminationSignal()
        logger.info("shutting down")
        app.stop()
    }

    func makeConfiguration(_ environment: Environment) throws -> AppConfiguration {
        var configuration = AppConfiguration()
        common.apply(to: &configuration, environment: environment)
        configuration.server.host = host ?? environment["FIELDBOOK_HOST"] ?? "127.0.0.1"
        configuration.server.port = try environment.resolve(port, "FIELDBOOK_PORT", default: 8080)
        configuration.server.threadCount = try environment.resolve(threads, "FIELDBOOK_THREADS",
                                                                   default: max(8, 4 * ProcessInfo.processInfo.activeProcessorCount))
        configuration.server.maxBodyBytes = try environment.resolve(maxBody, "FIELDBOOK_MAX_BODY",
                                                                    default: configuration.server.maxBodyBytes)
        if let text = upstream ?? environment["FIELDBOOK_UPSTREAM"] {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else {
                throw ValidationError("--upstream must be an http:// or https:// URL, got '\(text)'")
            }
            configuration.upstream = url
        }
        if let seconds = try syncInterval ?? environment["FIELDBOOK_SYNC_INTERVAL"].map({ text in
            guard let value = Int(text) else { throw ValidationError("FIELDBOOK_SYNC_INTERVAL must be a number of seconds") }
            return value
        }) {
            guard seconds >= 1 else { throw ValidationError("--sync-interval must be at least 1 second") }
            configuration.syncInterval = TimeInterval(seconds)
        }
        let certificate = tlsCert ?? environment["FIELDBOOK_TLS_CERT"]
        let key = tlsKey ?? environment["FIELDBOOK_TLS_KEY"]
        if (certificate == nil) != (key == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if let certificate, let key {
            configuration.server.tlsCertificatePEM = try String(contentsOfFile: certificate, encoding: .utf8)
            configuration.server.tlsKeyPEM = try String(contentsOfFile: key, encoding: .utf8)
        }
        return configuration
    }
}

/// Suspends until SIGINT or SIGTERM arrives.
func waitForTerminationSignal() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let once = SignalLatch(continuation)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { once.fire() }
            source.resume()
            once.keep(source)
        }
    }
}

/// Resumes its continuation once, however many signals arrive, and keeps the signal sources alive.
final class SignalLatch: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func keep(_ source: DispatchSourceSignal) { lock.withLock { sources.append(source) } }

    func fire() {
        let pending = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume()
    }
}

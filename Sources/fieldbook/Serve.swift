import App
import ArgumentParser
import Dispatch
import Foundation
import Logging

/// `fieldbook serve`: run the web app until SIGINT or SIGTERM.
struct Serve: FieldbookCommand {
    static let configuration = CommandConfiguration(abstract: "Serve Fieldbook (the default command).")

    @OptionGroup var common: CommonOptions
    @Option(.host) var host: String?
    @Option(.port) var port: UInt16?
    @Option(.upstream) var upstream: String?
    @Option(.syncInterval) var syncInterval: Int?
    @Option(.threads) var threads: Int?
    @Option(.maxBody) var maxBody: Int?
    @Option(.tlsCertificate) var tlsCertificate: String?
    @Option(.tlsKey) var tlsKey: String?

    /// In the order they are checked, which decides the refusal reported when several are wrong.
    var given: [GivenSetting] {
        common.given + [GivenSetting(.host, host), GivenSetting(.port, port), GivenSetting(.threads, threads),
                        GivenSetting(.maxBody, maxBody), GivenSetting(.upstream, upstream), GivenSetting(.syncInterval, syncInterval),
                        GivenSetting(.tlsCertificate, tlsCertificate), GivenSetting(.tlsKey, tlsKey)]
    }

    func perform() async throws {
        let configuration = try AppConfiguration(given)
        keepLoopbackOffProxy()
        let logger = makeLogger(level: configuration.logLevel)
        let app = try await FieldbookApp.make(configuration, logger: logger)
        try app.start(announce: announce)
        await waitForTerminationSignal()
        logger.info("shutting down")
        app.stop()
    }

    func makeLogger(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "fieldbook")
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

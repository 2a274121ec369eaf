import Foundation
import Testing
import TestSupport

/// serve announces itself on the LAN through the machine's Avahi, keeps announcing across an Avahi restart,
/// and withdraws on stop. The test's avahi-daemon runs in a network namespace of its own with loopback only, so no
/// mDNS packet leaves the machine; serve and avahi-browse reach it over the system D-Bus, as on a real machine.
@Suite(.serialized) struct LANAnnouncementTests {
    @Test(.enabled("needs root, dbus-daemon, avahi-daemon and avahi-browse (scripts/install-test-tools.sh installs them)") {
        AvahiInNamespace.startFailure == nil
    })
    func serveIsFoundByAvahiBrowseSurvivesAnAvahiRestartAndWithdrawsOnStop() throws {
        let avahi = try #require(AvahiInNamespace.shared)
        defer { avahi.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-mdns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
        #expect(try AvahiInNamespace.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                                               "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                                                               "-subj", "/CN=localhost"]).status == 0)
        let server = try FieldbookProcess(dataDirectory: directory.appendingPathComponent("data"),
                                          extraArguments: ["--host", "0.0.0.0", "--tls-cert", certificate, "--tls-key", key], announcing: true)
        defer { server.terminate() }
        let port = String(server.port)
        let announced = { AvahiInNamespace.browse().contains { $0.name.hasPrefix("Fieldbook on ") && $0.port == port } }

        #expect(AvahiInNamespace.waitUntil(seconds: 15, announced), "avahi-browse finds _https._tcp \"Fieldbook on HOSTNAME\" on port \(port)")

        try avahi.restartDaemon()
        #expect(AvahiInNamespace.waitUntil(seconds: 15, announced), "announced again once Avahi is back")
        let answer = try AvahiInNamespace.run("/usr/bin/curl", ["-sk", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/setup"])
        #expect(answer.output == "200", "serving all along")

        // A request whose body is still coming keeps serve draining (up to 10 s) once it stops: the announcement must
        // go while serve still runs, as stop() withdraws it; Avahi would withdraw it anyway once the process ended.
        let unfinished = try UnfinishedRequest(port: port)
        defer { unfinished.end() }
        server.process.terminate()
        #expect(AvahiInNamespace.waitUntil(seconds: 8) { !announced() }, "withdrawn when serve stops")
        #expect(server.process.isRunning, "withdrawn by serve's stop, while it still drains the unfinished request")
        unfinished.end()
        server.terminate()
    }
}

/// A TLS connection that has sent a POST's headers and only part of its body, until `end`.
private final class UnfinishedRequest {
    private let process = Process()
    private let input = Pipe(), output = Pipe()

    init(port: String) throws {
        let script = """
        import socket, ssl, sys
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        connection = context.wrap_socket(socket.create_connection(("127.0.0.1", \(port))))
        connection.sendall(b"POST /login HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/x-www-form-urlencoded\\r\\nContent-Length: 100\\r\\n\\r\\nemail=")
        print("sent", flush=True)
        sys.stdin.readline()
        """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = try output.fileHandleForReading.read(upToCount: 5)  // "sent\n": the headers have left
        Thread.sleep(forTimeInterval: 0.5)
    }

    func end() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A system D-Bus (the machine's, or one started here) and an avahi-daemon in a network namespace with loopback only,
/// both stopped by the test when it started them.
final class AvahiInNamespace: @unchecked Sendable {
    static let namespace = "fieldbook-mdns-test"
    /// The system bus's daemon, when this test started it.
    private var busProcess: Int32?

    /// Why the daemons could not be started here; printed once, so the skipped test says what is missing.
    static let startFailure: String? = {
        do {
            shared = try AvahiInNamespace()
            return nil
        } catch {
            print("LANAnnouncementTests skipped: \(error)")
            return "\(error)"
        }
    }()
    nonisolated(unsafe) static var shared: AvahiInNamespace?

    private init() throws {
        guard getuid() == 0 else { throw Failure("network namespaces need root") }
        for tool in ["/usr/bin/dbus-daemon", "/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/ip"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw Failure("\(tool) is not installed")
        }
        if (try Self.run("/usr/sbin/avahi-daemon", ["--check"])).status == 0 {
            throw Failure("an avahi-daemon already runs on this machine; the test needs its own")
        }
        if !FileManager.default.fileExists(atPath: "/run/dbus/system_bus_socket") {
            try FileManager.default.createDirectory(atPath: "/run/dbus", withIntermediateDirectories: true)
            let bus = try Self.run("/usr/bin/dbus-daemon", ["--system", "--fork", "--nopidfile", "--print-pid"])
            guard bus.status == 0, let pid = Int32(bus.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Failure("dbus-daemon --system did not start: \(bus.output)")
            }
            busProcess = pid
        }
        _ = try? Self.run("/usr/bin/ip", ["netns", "delete", Self.namespace])
        for step in [["netns", "add", Self.namespace], ["-n", Self.namespace, "link", "set", "lo", "up"],
                     ["-n", Self.namespace, "link", "set", "lo", "multicast", "on"]] {
            let done = try Self.run("/usr/bin/ip", step)
            guard done.status == 0 else { stop(); throw Failure("ip \(step.joined(separator: " ")) failed: \(done.output)") }
        }
        do { try startDaemon() } catch { stop(); throw error }
    }

    static func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return condition()
    }

    /// Daemons are started by their own --fork/--daemonize and stopped by pid: Foundation's Process takes a daemon
    /// closing its inherited descriptors for its end, and then waits for it, blocking every other process the test runs.
    private func startDaemon() throws {
        let started = try Self.run("/usr/bin/ip", ["netns", "exec", Self.namespace, "/usr/sbin/avahi-daemon", "--daemonize"])
        guard started.status == 0, Self.waitUntil({ (try? Self.run("/usr/sbin/avahi-daemon", ["--check"]))?.status == 0 }) else {
            throw Failure("avahi-daemon did not start: \(started.output)")
        }
    }

    private func stopDaemon() {
        _ = try? Self.run("/usr/sbin/avahi-daemon", ["--kill"])
        _ = Self.waitUntil { (try? Self.run("/usr/sbin/avahi-daemon", ["--check"]))?.status != 0 }
    }

    func restartDaemon() throws {
        stopDaemon()
        try startDaemon()
    }

    /// dbus-daemon does not stop on SIGTERM.
    func stop() {
        stopDaemon()
        _ = try? Self.run("/usr/bin/ip", ["netns", "delete", Self.namespace])
        if let busProcess {
            kill(busProcess, SIGKILL)
            try? FileManager.default.removeItem(atPath: "/run/dbus/system_bus_socket")
            self.busProcess = nil
        }
    }

    /// The services avahi-browse resolves now (`-rpt`: resolved, parsable, terminating).
    static func browse() -> [(name: String, port: String)] {
        guard let listed = try? run("/usr/bin/avahi-browse", ["-rpt", "_https._tcp"]) else { return [] }
        return listed.output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.first == "=", fields.count >= 9 else { return nil }
            return (fields[3].replacingOccurrences(of: "\\032", with: " "), String(fields[8]))
        }
    }

    /// Runs a program to its end with posix_spawn, its output in a file. Not Foundation's Process: it learns that a
    /// child ended when a socket the child inherited closes, so a daemon that forks (and keeps it) or that closes every
    /// descriptor (and drops it) leaves it waiting, or wrongly sure, and then blocked in wait4.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-mdns-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure("\(executable) could not be started: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

import Foundation
import HTTPServer
import Logging
import Synchronization
import Testing
import TestSupport

/// Hands out a new stream for every GET /stream and keeps them, so tests can feed and inspect them.
final class StreamingResponder: RequestResponder {
    let streams = Mutex<[EventStream]>([])
    let maxQueuedBytes: Int

    init(maxQueuedBytes: Int = 256 * 1024) { self.maxQueuedBytes = maxQueuedBytes }

    func respond(to request: Request) -> Response {
        guard request.path == "/stream" else { return .text("pong \(request.path)") }
        let stream = EventStream(maxQueuedBytes: maxQueuedBytes)
        stream.send(": open\n\n")
        streams.withLock { $0.append(stream) }
        return .stream(contentType: "text/event-stream", stream)
    }

    func respond(to request: Request, failure: HTTPError) -> Response { .text("refused", status: failure.status) }

    var all: [EventStream] { streams.withLock { $0 } }

    /// Waits until `count` streams were handed out.
    func waitForStreams(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while all.count < count, Date() < deadline { usleep(5000) }
        return all.count >= count
    }
}

@Suite(.serialized) struct StreamingTests {
    func startServer(threads: Int = 2, responder: StreamingResponder = StreamingResponder()) throws -> (HTTPServer, UInt16, StreamingResponder) {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: threads), responder: responder, logger: logger)
        return (server, try server.start(), responder)
    }

    @Test func eventsArriveAsTheyAreSent() throws {
        let (server, port, responder) = try startServer()
        defer { server.stop() }
        let client = try StreamingClient(port: port, path: "/stream")
        #expect(client.waitFor(": open\n\n"))
        #expect(client.status == 200)
        #expect(client.header("Content-Type") == "text/event-stream")
        #expect(client.header("Cache-Control") == "no-store")
        #expect(client.header("Transfer-Encoding") == "chunked")
        let stream = try #require(responder.all.first)
        for number in 1...3 {
            #expect(stream.send("event: tick\ndata: \(number)\n\n"))
            #expect(client.waitFor("data: \(number)\n\n"))
        }
        #expect(!client.ended)
        stream.close()
        #expect(client.waitForEnd())
        #expect(client.body == ": open\n\nevent: tick\ndata: 1\n\nevent: tick\ndata: 2\n\nevent: tick\ndata: 3\n\n")
    }

    @Test func aLargeEventArrivesWhole() throws {
        let (server, port, responder) = try startServer()
        defer { server.stop() }
        let client = try StreamingClient(port: port, path: "/stream")
        #expect(client.waitFor(": open"))
        let big = "data: " + String(repeating: "x", count: 20_000) + "\n\n"
        try #require(responder.all.first).send(big)
        #expect(client.waitFor(big))
    }

    @Test func stopEndsOpenStreamsPromptly() throws {
        let (server, port, responder) = try startServer()
        let clients = try (0..<5).map { _ in try StreamingClient(port: port, path: "/stream") }
        #expect(clients.allSatisfy { $0.waitFor(": open") })
        #expect(server.openStreamCount == 5)
        let started = Date()
        server.stop() // drainSeconds is 10: an endless stream that held the drain up would take that long
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(clients.allSatisfy { $0.waitForEnd(timeout: 2) })
        #expect(responder.all.allSatisfy { $0.isClosed })
    }

    @Test func aClientThatLeavesClosesItsStream() throws {
        let (server, port, responder) = try startServer()
        defer { server.stop() }
        var client: StreamingClient? = try StreamingClient(port: port, path: "/stream")
        #expect(client?.waitFor(": open") == true)
        let stream = try #require(responder.all.first)
        client = nil // closes the socket
        // A parked connection notices the departure on its next write, as with a heartbeat.
        let deadline = Date().addingTimeInterval(5)
        while !stream.isClosed, Date() < deadline {
            stream.send(": heartbeat\n\n")
            usleep(50_000)
        }
        #expect(stream.isClosed)
        #expect(server.openStreamCount == 0)
        _ = client
    }

    @Test func aClientThatNeverReadsIsDroppedWhenItFallsTooFarBehind() throws {
        let (server, port, responder) = try startServer(responder: StreamingResponder(maxQueuedBytes: 64 * 1024))
        defer { server.stop() }
        let stalled = try StalledConnection(port: port, partial: "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(responder.waitForStreams(1))
        let stream = try #require(responder.all.first)
        let chunk = String(repeating: "y", count: 8 * 1024)
        var sent = 0
        while stream.send("data: \(chunk)\n\n"), sent < 10_000 { sent += 1 }
        #expect(stream.isClosed) // the kernel buffers absorb some, then the queue limit ends it
        withExtendedLifetime(stalled) {}
    }

    /// A download written faster than it is read (an export): the writer waits for the client instead of dropping it,
    /// every byte arrives in order, and the queue never holds more than its limit.
    @Test func aWaitingWriterSlowsToItsClientAndLosesNothing() throws {
        let limit = 64 * 1024
        let (server, port, responder) = try startServer(responder: StreamingResponder(maxQueuedBytes: limit))
        defer { server.stop() }
        let client = try StreamingClient(port: port, path: "/stream")
        #expect(responder.waitForStreams(1))
        let stream = try #require(responder.all.first)
        let lines = (0..<4_000).map { "line \($0) " + String(repeating: "w", count: 200) + "\n" }
        let writer = Thread {
            for line in lines { guard stream.sendWaiting(Array(line.utf8)) else { return } }
            stream.close()
        }
        writer.start()
        #expect(client.waitForEnd(timeout: 30))
        #expect(client.body == ": open\n\n" + lines.joined())
    }

    @Test func aWaitingWriterIsToldWhenItsClientLeaves() throws {
        let (server, port, responder) = try startServer(responder: StreamingResponder(maxQueuedBytes: 16 * 1024))
        defer { server.stop() }
        var stalled: StalledConnection? = try StalledConnection(port: port, partial: "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(responder.waitForStreams(1))
        let stream = try #require(responder.all.first)
        let stopped = Atomic<Bool>(false)
        let writer = Thread {
            let part = [UInt8](repeating: 120, count: 8 * 1024)
            while stream.sendWaiting(part) {}
            stopped.store(true, ordering: .relaxed)
        }
        writer.start()
        usleep(300_000)
        let stoppedEarly = stopped.load(ordering: .relaxed)
        #expect(!stoppedEarly) // waiting for a client that reads nothing, not dropped
        stalled = nil // the client leaves
        let deadline = Date().addingTimeInterval(10)
        while !stopped.load(ordering: .relaxed), Date() < deadline { usleep(20_000) }
        let stoppedAfterLeaving = stopped.load(ordering: .relaxed)
        #expect(stoppedAfterLeaving)
        #expect(stream.isClosed)
        _ = stalled
    }

    @Test func anAbortedStreamEndsWithoutItsLastChunk() throws {
        let (server, port, responder) = try startServer()
        defer { server.stop() }
        let client = try StreamingClient(port: port, path: "/stream")
        #expect(client.waitFor(": open"))
        try #require(responder.all.first).abort()
        #expect(client.waitForEnd())
        #expect(!client.sawLastChunk) // the connection was cut: a download shows as failed, not as a short file
    }

    /// 50 SSE clients on a pool of 2 threads: 25 that read and 25 that never read while events keep coming.
    /// Normal requests are still answered quickly, and parked streams cost no CPU (no busy-waiting).
    @Test func manyStreamsDoNotStarveNormalRequests() throws {
        let otherServers = serverThreadIds()
        let (server, port, responder) = try startServer(threads: 2)
        // Only this server's threads are timed: other suites run in the same process at the same time.
        usleep(200_000)  // each thread names itself as it starts
        let threads = serverThreadIds().subtracting(otherServers)
        #expect(!threads.isEmpty)
        defer { server.stop() }
        let readers = try (0..<25).map { _ in try StreamingClient(port: port, path: "/stream") }
        let stalled = try (0..<25).map { _ in try StalledConnection(port: port, partial: "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n") }
        #expect(responder.waitForStreams(50))
        #expect(readers.allSatisfy { $0.waitFor(": open") })

        let idleCPU = threadCPUSeconds(threads, during: 1.0)
        #expect(idleCPU < 0.3, "50 open streams with nothing to send used \(idleCPU) s of CPU in 1 s")

        let feeding = Atomic<Bool>(true)
        let feeder = Thread {
            let payload = "data: " + String(repeating: "z", count: 1000) + "\n\n"
            while feeding.load(ordering: .relaxed) {
                responder.all.forEach { $0.send(payload) }
                usleep(2000)
            }
        }
        feeder.start()
        defer { feeding.store(false, ordering: .relaxed) }
        var slowest = 0.0
        for number in 0..<30 {
            let started = Date()
            let answer = try RawHTTPClient.send("GET /ping/\(number) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            slowest = max(slowest, Date().timeIntervalSince(started))
            #expect(answer.status == 200 && answer.body == "pong /ping/\(number)")
        }
        #expect(slowest < 1, "slowest normal request took \(slowest) s")
        #expect(readers.allSatisfy { $0.waitFor("zzz") })
        withExtendedLifetime(stalled) {}
    }
}

/// The ids of the process's libmicrohttpd threads (named MHD-…).
func serverThreadIds() -> Set<Int> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(tasks.compactMap { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return name.hasPrefix("MHD") ? Int(task) : nil
    })
}

/// CPU time (user and system) the threads `ids` use while this thread sleeps `seconds`.
func threadCPUSeconds(_ ids: Set<Int>, during seconds: TimeInterval) -> Double {
    func now() -> Double {
        ids.reduce(0.0) { total, id in
            // Fields 14 and 15 of /proc/…/stat, after the parenthesised name: user and system time in clock ticks.
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")") else { return total }
            let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return total }
            return total + (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
    }
    let before = now()
    Thread.sleep(forTimeInterval: seconds)
    return now() - before
}

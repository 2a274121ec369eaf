import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw client for a long-lived chunked response (Server-Sent Events): sends one request, then reads
/// the answer bit by bit, decoding the chunked body, so tests can wait for events and for the end.
public final class StreamingClient {
    let descriptor: Int32
    private var received: [UInt8] = []
    /// True once the server closed the connection or ended the chunked body.
    public private(set) var ended = false
    /// True when the chunked body ended properly (its zero-length last chunk), false when the connection was cut.
    public private(set) var sawLastChunk = false

    public init(port: UInt16, request: String) throws {
        descriptor = try connectToLoopback(port: port)
        _ = request.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// Opens `GET path` with the given extra header lines (each ending in \r\n).
    public convenience init(port: UInt16, path: String, headers: String = "") throws {
        try self.init(port: port, request: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\(headers)\r\n")
    }

    deinit { close(descriptor) }

    /// The status line and headers, once they have arrived.
    public var head: String? {
        let text = String(decoding: received, as: UTF8.self)
        return text.range(of: "\r\n\r\n").map { String(text[..<$0.lowerBound]) }
    }

    public var status: Int { head?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0 }

    /// A response header by case-insensitive name.
    public func header(_ name: String) -> String? {
        for line in (head ?? "").components(separatedBy: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// The body received so far, with the chunk framing removed.
    public var body: String {
        guard let start = findHeaderEnd() else { return "" }
        var bytes = received[start...]
        var output: [UInt8] = []
        while let lineEnd = indexOfCRLF(in: bytes), let size = Int(String(decoding: bytes[bytes.startIndex..<lineEnd], as: UTF8.self), radix: 16) {
            let dataStart = lineEnd + 2
            guard size > 0, bytes.endIndex >= dataStart + size else { break }
            output += bytes[dataStart..<(dataStart + size)]
            bytes = bytes[min(bytes.endIndex, dataStart + size + 2)...]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Reads until `condition` holds for this client or `timeout` passes; answers whether it held.
    @discardableResult
    public func wait(timeout: TimeInterval = 5, until condition: (StreamingClient) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            guard !ended, Date() < deadline else { return condition(self) }
            readAvailable(waitingMilliseconds: 50)
        }
        return true
    }

    /// Waits until the body contains `text`.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 5) -> Bool {
        wait(timeout: timeout) { $0.body.contains(text) }
    }

    /// Waits until the server ends the response (last chunk) or closes the connection.
    @discardableResult
    public func waitForEnd(timeout: TimeInterval = 5) -> Bool {
        wait(timeout: timeout) { $0.ended }
    }

    private func readAvailable(waitingMilliseconds: Int32) {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, waitingMilliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16384)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 {
            ended = true
            return
        }
        received += buffer[0..<count]
        if let start = findHeaderEnd(), received[start...].starts(with: Array("0\r\n\r\n".utf8)) || containsLastChunk(after: start) {
            ended = true
            sawLastChunk = true
        }
    }

    private func containsLastChunk(after start: Int) -> Bool {
        let terminator = Array("\r\n0\r\n\r\n".utf8)
        guard received.count - start >= terminator.count else { return false }
        return Array(received.suffix(terminator.count)) == terminator
    }

    private func findHeaderEnd() -> Int? {
        let marker = Array("\r\n\r\n".utf8)
        guard received.count >= marker.count else { return nil }
        for index in 0...(received.count - marker.count) where received[index..<(index + marker.count)].elementsEqual(marker) {
            return index + marker.count
        }
        return nil
    }

    private func indexOfCRLF(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}

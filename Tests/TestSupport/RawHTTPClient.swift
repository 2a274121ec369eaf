import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends exact bytes to a server on loopback and reads the whole answer, so tests control malformed and chunked bodies.
public enum RawHTTPClient {
    /// A parsed HTTP answer.
    public struct Answer: Sendable {
        public let status: Int
        /// Header values by lower-cased name (the last one wins).
        public let headers: [String: String]
        /// Every Set-Cookie header, in order.
        public let setCookies: [String]
        public let body: String
    }

    public static func send(_ request: String, port: UInt16, body: [UInt8] = []) throws -> Answer {
        let socketFD = try connectToLoopback(port: port)
        defer { close(socketFD) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8) + body
        _ = bytes.withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socketFD, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return parse(String(decoding: received, as: UTF8.self))
    }

    /// What came back on one connection: every byte the server sent, and whether it closed the connection (rather
    /// than leaving it open until the wait ran out).
    public struct Exchange: Sendable {
        public let text: String
        public let closedByServer: Bool

        /// The status of each answer, in order: pipelined requests get one answer each on a kept-alive connection, the
        /// next status line straight after the last body's byte.
        public var statuses: [Int] {
            text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
        }
    }

    /// Sends exact bytes, which may hold more than one request, and reads until the server closes the connection or
    /// `seconds` pass without a byte.
    public static func exchange(_ bytes: String, port: UInt16, seconds: Int = 3) throws -> Exchange {
        let socketFD = try connectToLoopback(port: port)
        defer { close(socketFD) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = Array(bytes.utf8).withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socketFD, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
                continue
            }
            let waitedInVain = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            return Exchange(text: String(decoding: received, as: UTF8.self), closedByServer: !waitedInVain)
        }
    }

    private static func parse(_ text: String) -> Answer {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
            if name == "set-cookie" { cookies.append(value) }
        }
        return Answer(status: status, headers: headers, setCookies: cookies, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}

/// Opens a TCP connection to 127.0.0.1:port and returns its descriptor.
public func connectToLoopback(port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(descriptor)
        throw POSIXError(.ECONNREFUSED)
    }
    return descriptor
}

/// A connection left open after sending part of a request, like a client on a bad network.
public final class StalledConnection {
    let descriptor: Int32

    public init(port: UInt16, partial: String) throws {
        descriptor = try connectToLoopback(port: port)
        _ = partial.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(descriptor) }
}

import Foundation

/// A minimal HTTP/1.1 server on 127.0.0.1 for the requests being measured: each connection on its own thread, kept
/// open, every request answered 200 with `answer`'s bytes once its body (Content-Length) has arrived.
final class LoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let answer: [UInt8]

    init(answerBytes: Int) throws {
        answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(answerBytes)\r\n\r\n".utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: answerBytes)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // Headers, then as much body as they announce.
            var headerEnd: Int?
            var needed = Int.max
            while buffer.count < needed {
                if headerEnd == nil, let end = Self.headerEnd(buffer) {
                    headerEnd = end
                    let headers = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                    let length = headers.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    needed = end + length
                    continue
                }
                let count = read(connection, &chunk, chunk.count)
                guard count > 0 else { return }
                buffer += chunk[..<count]
            }
            buffer.removeFirst(needed)
            var sent = 0
            while sent < answer.count {
                let count = answer[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                sent += count
            }
        }
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}

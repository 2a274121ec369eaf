import CZlib

/// gzip for large answers a client accepts compressed (the map's GeoJSON): the one Swift file that calls zlib.
public enum Gzip {
    /// Whether the request's Accept-Encoding allows gzip (and does not refuse it with q=0).
    public static func isAccepted(by request: Request) -> Bool {
        (request.header("accept-encoding") ?? "").split(separator: ",").contains { part in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return pieces.first == "gzip" && !pieces.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.000" }
        }
    }

    /// The bytes in gzip format; nil if zlib fails (the caller then sends them uncompressed).
    /// Level 1: on 2 shared cores speed matters more than the last few percent of size.
    public static func compress(_ bytes: [UInt8], level: Int32 = 1) -> [UInt8]? {
        var stream = z_stream()
        guard fieldbook_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let status = bytes.withUnsafeBufferPointer { input -> Int32 in
            output.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// `response` compressed when the request accepts gzip and the body is worth it; says so in its headers either way.
    public static func negotiate(_ response: Response, for request: Request, minimumBytes: Int = 1024) -> Response {
        var answer = response
        answer.setHeader("Vary", "Accept-Encoding")
        guard response.body.count >= minimumBytes, isAccepted(by: request), let compressed = compress(response.body) else { return answer }
        answer.body = compressed
        answer.setHeader("Content-Encoding", "gzip")
        return answer
    }
}

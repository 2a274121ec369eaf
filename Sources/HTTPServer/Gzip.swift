import CZlib
import Dispatch

/// gzip for large answers a client accepts compressed (the map's GeoJSON).
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
        deflated(bytes, flush: Z_FINISH) { fieldbook_deflate_init_gzip(&$0, level) }
    }

    /// The parts, joined, in gzip format: each part deflated on its own thread, as pigz does. Every part but the last ends
    /// on a byte boundary (a sync flush) and the last one finishes the stream, so the pieces join into one deflate stream,
    /// and the trailer's checksum is combined from the parts'. nil if zlib fails.
    public static func compress(parts: [[UInt8]], level: Int32 = 1) -> [UInt8]? {
        guard parts.count > 1 else { return compress(parts.first ?? [], level: level) }
        var pieces = [(bytes: [UInt8], crc: uLong)?](repeating: nil, count: parts.count)
        pieces.withUnsafeMutableBufferPointer { slots in
            // Each thread writes only its own slot.
            nonisolated(unsafe) let slots = slots
            DispatchQueue.concurrentPerform(iterations: parts.count) { index in
                let part = parts[index]
                guard let deflated = deflateRaw(part, finishing: index == parts.count - 1, level: level) else { return }
                let crc = part.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
                slots[index] = (deflated, crc)
            }
        }
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        var crc: uLong = 0, length = 0
        for (index, piece) in pieces.enumerated() {
            guard let piece else { return nil }
            output.append(contentsOf: piece.bytes)
            crc = index == 0 ? piece.crc : crc32_combine(crc, piece.crc, off_t(parts[index].count))
            length += parts[index].count
        }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: crc) >> shift)) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: length) >> shift)) }
        return output
    }

    /// `bytes` as raw deflate data: ending the stream when `finishing`, otherwise on a byte boundary so more can follow.
    private static func deflateRaw(_ bytes: [UInt8], finishing: Bool, level: Int32) -> [UInt8]? {
        deflated(bytes, flush: finishing ? Z_FINISH : Z_SYNC_FLUSH) { fieldbook_deflate_init_raw(&$0, level) }
    }

    /// `bytes` through one deflate call with `flush`, on a stream `start` sets up (its format and level).
    private static func deflated(_ bytes: [UInt8], flush: Int32, start: (inout z_stream) -> Int32) -> [UInt8]? {
        var stream = z_stream()
        guard start(&stream) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // A sync flush adds a few bytes beyond the bound.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        let status = bytes.withUnsafeBufferPointer { input -> Int32 in
            output.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, flush)
            }
        }
        guard status == (flush == Z_FINISH ? Z_STREAM_END : Z_OK), stream.avail_in == 0 else { return nil }
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

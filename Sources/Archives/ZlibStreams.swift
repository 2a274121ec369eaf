import CZlib

/// Raw deflate written a part at a time (the members of a ZIP archive written while it downloads): memory stays one
/// part's worth, however long the stream.
public final class DeflateStream {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    /// nil if zlib cannot start a stream. Level 1: on 2 shared cores speed matters more than the last few percent.
    public init?(level: Int32 = 1) {
        guard fieldbook_deflate_init_raw(&stream, level) == Z_OK else { return nil }
    }

    deinit { deflateEnd(&stream) }

    /// What zlib writes for `bytes`, possibly nothing yet; `finishing` ends the stream. nil if zlib fails.
    public func deflate(_ bytes: [UInt8], finishing: Bool) -> [UInt8]? {
        guard finishing || !bytes.isEmpty else { return [] }
        var written: [UInt8] = []
        let flush = finishing ? Z_FINISH : Z_NO_FLUSH
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = CZlib.deflate(&stream, flush)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { return nil }
                written += output[..<produced]
                let done = finishing ? status == Z_STREAM_END : stream.avail_in == 0 && stream.avail_out > 0
                if done { return written }
                guard produced > 0 || status != Z_BUF_ERROR else { return nil }
            }
        }
    }
}

/// Raw deflate data read back a part at a time (the members of an uploaded ZIP archive): memory stays one part's worth.
public final class InflateStream {
    public enum Failure: Error { case cannotStart, corrupt }

    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 256 * 1024)
    /// True once the deflate data has ended.
    public private(set) var finished = false

    public init() throws {
        guard fieldbook_inflate_init_raw(&stream) == Z_OK else { throw Failure.cannotStart }
    }

    deinit { inflateEnd(&stream) }

    /// Hands `emit` what `bytes` inflate to, a part at a time; bytes after the stream's end are ignored.
    public func inflate(_ bytes: [UInt8], _ emit: ([UInt8]) throws -> Void) throws {
        guard !finished, !bytes.isEmpty else { return }
        try bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while stream.avail_in > 0, !finished {
                let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else { throw Failure.corrupt }
                if produced > 0 { try emit(Array(output[..<produced])) }
                finished = status == Z_STREAM_END
                if status == Z_BUF_ERROR, produced == 0 { break }
            }
        }
    }
}

/// CRC-32 (as ZIP and gzip use it), continued over more bytes.
public enum CRC32 {
    public static func continuing(_ crc: UInt32, over bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
    }
}

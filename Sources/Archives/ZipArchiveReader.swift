import Foundation

/// Reads a ZIP archive from a file, a member at a time and a part at a time (an uploaded Fieldbook export): its
/// central directory says where each member is; stored and deflated members are read, checked against their CRC-32
/// and size. Archives past 4 GiB (ZIP64), encrypted or split ones are refused.
public struct ZipArchiveReader: Sendable {
    public enum Failure: Error, Equatable {
        /// Not a ZIP archive, or one cut short.
        case notAnArchive
        /// A member's data does not match its checksum or size, or cannot be inflated.
        case corrupt(String)
        /// A compression method, encryption or ZIP64, which Fieldbook never writes.
        case unsupported(String)
        case noSuchMember(String)
    }

    public struct Member: Sendable, Equatable {
        public let name: String
        public let size: Int
        let compressedSize: Int
        let method: UInt16
        let crc: UInt32
        let headerOffset: Int
    }

    public let path: String
    public let members: [Member]

    /// Whether the file starts as a ZIP archive does (a local file header), judged by its first bytes alone.
    public static func looksLikeArchive(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        return (try? file.read(upToCount: 4)).map { [UInt8]($0) == [0x50, 0x4B, 0x03, 0x04] } ?? false
    }

    public init(path: String) throws {
        self.path = path
        guard let file = FileHandle(forReadingAtPath: path) else { throw Failure.notAnArchive }
        defer { try? file.close() }
        let length = Int(try file.seekToEnd())
        // The end record is the last 22 bytes, followed by a comment of at most 65,535 bytes.
        let tailLength = min(length, 22 + 65_535)
        try file.seek(toOffset: UInt64(length - tailLength))
        let tail = [UInt8](try file.read(upToCount: tailLength) ?? Data())
        // The end record is the one whose comment runs to the file's end (a comment may hold the signature's bytes).
        guard tail.count >= 22, let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: {
            Self.uint32(tail, $0) == 0x0605_4b50 && $0 + 22 + Int(Self.uint16(tail, $0 + 20)) == tail.count
        }) else { throw Failure.notAnArchive }
        let count = Int(Self.uint16(tail, end + 10)), directorySize = Int(Self.uint32(tail, end + 12))
        let directoryOffset = Int(Self.uint32(tail, end + 16))
        guard directoryOffset != 0xFFFF_FFFF, count != 0xFFFF else { throw Failure.unsupported("ZIP64") }
        guard directoryOffset + directorySize <= length else { throw Failure.notAnArchive }
        try file.seek(toOffset: UInt64(directoryOffset))
        let directory = [UInt8](try file.read(upToCount: directorySize) ?? Data())
        var members: [Member] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, Self.uint32(directory, at) == 0x0201_4b50 else { throw Failure.notAnArchive }
            let flags = Self.uint16(directory, at + 8)
            guard flags & 1 == 0 else { throw Failure.unsupported("encryption") }
            let nameLength = Int(Self.uint16(directory, at + 28)), extraLength = Int(Self.uint16(directory, at + 30))
            let commentLength = Int(Self.uint16(directory, at + 32))
            guard at + 46 + nameLength <= directory.count else { throw Failure.notAnArchive }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            guard ![Self.uint32(directory, at + 20), Self.uint32(directory, at + 24), Self.uint32(directory, at + 42)].contains(0xFFFF_FFFF) else {
                throw Failure.unsupported("ZIP64")
            }
            members.append(Member(name: name, size: Int(Self.uint32(directory, at + 24)), compressedSize: Int(Self.uint32(directory, at + 20)),
                                  method: Self.uint16(directory, at + 10), crc: Self.uint32(directory, at + 16),
                                  headerOffset: Int(Self.uint32(directory, at + 42))))
            at += 46 + nameLength + extraLength + commentLength
        }
        self.members = members
    }

    public func member(named name: String) -> Member? { members.first { $0.name == name } }

    /// Hands `emit` the member's bytes a part at a time, then checks them against the member's size and CRC-32.
    public func read(_ name: String, _ emit: ([UInt8]) throws -> Void) throws {
        guard let member = member(named: name) else { throw Failure.noSuchMember(name) }
        guard member.method == 0 || member.method == 8 else { throw Failure.unsupported("compression method \(member.method)") }
        guard let file = FileHandle(forReadingAtPath: path) else { throw Failure.notAnArchive }
        defer { try? file.close() }
        try file.seek(toOffset: UInt64(member.headerOffset))
        let header = [UInt8](try file.read(upToCount: 30) ?? Data())
        guard header.count == 30, Self.uint32(header, 0) == 0x0403_4b50 else { throw Failure.corrupt(name) }
        try file.seek(toOffset: UInt64(member.headerOffset + 30 + Int(Self.uint16(header, 26)) + Int(Self.uint16(header, 28))))
        let inflater = member.method == 8 ? try InflateStream() : nil
        var crc: UInt32 = 0, size = 0, left = member.compressedSize
        func take(_ part: [UInt8]) throws {
            crc = CRC32.continuing(crc, over: part)
            size += part.count
            guard size <= member.size else { throw Failure.corrupt(name) }
            try emit(part)
        }
        while left > 0 {
            let chunk = [UInt8](try file.read(upToCount: min(left, 1 << 20)) ?? Data())
            guard !chunk.isEmpty else { throw Failure.corrupt(name) }
            left -= chunk.count
            if let inflater {
                do { try inflater.inflate(chunk, take) } catch is InflateStream.Failure { throw Failure.corrupt(name) }
            } else {
                try take(chunk)
            }
        }
        guard size == member.size, crc == member.crc, inflater?.finished ?? true else { throw Failure.corrupt(name) }
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}

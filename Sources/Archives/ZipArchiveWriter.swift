import Foundation

/// A ZIP archive (APPNOTE 6.3) written front to back, one member at a time, without knowing any size in advance: each
/// member's checksum and sizes follow its data (general purpose bit 3), so an archive can be written while it
/// downloads. Members are deflated; names are UTF-8 (bit 11). Without ZIP64 an archive holds at most 65,535 members
/// and 4 GiB: past those the writer throws `tooLarge` (every field it writes is a checked conversion, never a trap).
public struct ZipArchiveWriter {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case tooLarge(String)
        case compressionFailed
        case noMemberOpen

        public var description: String {
            switch self {
            case .tooLarge(let what): "the ZIP archive would be too large: \(what)"
            case .compressionFailed: "compressing failed (out of memory?)"
            case .noMemberOpen: "no member is open"
            }
        }
    }

    /// What a ZIP archive without ZIP64 holds at most; tests give smaller ones.
    public struct Limits: Sendable {
        public var members: Int
        public var bytes: UInt64

        public init(members: Int = Int(UInt16.max), bytes: UInt64 = UInt64(UInt32.max)) {
            self.members = members
            self.bytes = bytes
        }

        public static let zip = Limits()
    }

    private struct Member {
        let name: [UInt8]
        let offset: UInt64
        var crc: UInt32 = 0
        var size: UInt64 = 0
        var compressedSize: UInt64 = 0
    }

    private var members: [Member] = []
    private var open: (member: Member, deflater: DeflateStream)?
    private var written: UInt64 = 0
    private let time: UInt16
    private let date: UInt16
    private let limits: Limits
    private static let flags: UInt16 = 0x0008 | 0x0800

    /// `modified`: the time every member carries (MS-DOS format, UTC).
    public init(modified: Date = Date(), limits: Limits = .zip) {
        self.limits = limits
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: modified)
        time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        // MS-DOS dates run from 1980 to 2107; a clock outside that gets the nearest.
        date = UInt16(min(127, max(0, (parts.year ?? 1980) - 1980)) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
    }

    /// Opens a member (ending any open one); returns the bytes to send.
    public mutating func beginMember(_ name: String) throws -> [UInt8] {
        var bytes = try open == nil ? [] : endMember()
        guard members.count < limits.members else { throw Failure.tooLarge("more than \(limits.members) files") }
        guard let deflater = DeflateStream() else { throw Failure.compressionFailed }
        let member = Member(name: Array(name.utf8), offset: written)
        var header = LittleEndianBytes()
        header.append32(0x0403_4b50)
        header.append16(20)  // version needed: 2.0 (deflate)
        header.append16(Self.flags)
        header.append16(8)  // deflate
        header.append16(time)
        header.append16(date)
        header.append32(0)  // checksum and sizes: in the data descriptor after the data
        header.append32(0)
        header.append32(0)
        header.append16(try narrowed(member.name.count, "a file name of \(member.name.count) bytes"))
        header.append16(0)
        header.bytes += member.name
        open = (member, deflater)
        bytes += try counted(header.bytes)
        return bytes
    }

    /// Adds to the open member; returns the compressed bytes to send (possibly none yet).
    public mutating func write(_ bytes: [UInt8]) throws -> [UInt8] {
        guard var (member, deflater) = open else { throw Failure.noMemberOpen }
        member.crc = CRC32.continuing(member.crc, over: bytes)
        member.size += UInt64(bytes.count)
        guard let compressed = deflater.deflate(bytes, finishing: false) else { throw Failure.compressionFailed }
        member.compressedSize += UInt64(compressed.count)
        open = (member, deflater)
        guard member.size <= limits.bytes, member.compressedSize <= limits.bytes else { throw Failure.tooLarge("a file over \(limits.bytes) bytes") }
        return try counted(compressed)
    }

    /// Ends the open member: the rest of its compressed data and its data descriptor.
    public mutating func endMember() throws -> [UInt8] {
        guard var (member, deflater) = open else { throw Failure.noMemberOpen }
        guard let rest = deflater.deflate([], finishing: true) else { throw Failure.compressionFailed }
        member.compressedSize += UInt64(rest.count)
        var descriptor = LittleEndianBytes()
        descriptor.append32(0x0807_4b50)
        descriptor.append32(member.crc)
        descriptor.append32(try narrowed(member.compressedSize, "a file over 4 GiB"))
        descriptor.append32(try narrowed(member.size, "a file over 4 GiB"))
        open = nil
        members.append(member)
        return try counted(rest + descriptor.bytes)
    }

    /// Ends any open member and writes the central directory: the archive's last bytes.
    public mutating func finish() throws -> [UInt8] {
        var bytes = try open == nil ? [] : endMember()
        let directoryStart = written
        var directory = LittleEndianBytes()
        for member in members {
            directory.append32(0x0201_4b50)
            directory.append16(20)  // made by: 2.0, MS-DOS attributes
            directory.append16(20)
            directory.append16(Self.flags)
            directory.append16(8)
            directory.append16(time)
            directory.append16(date)
            directory.append32(member.crc)
            directory.append32(try narrowed(member.compressedSize, "a file over 4 GiB"))
            directory.append32(try narrowed(member.size, "a file over 4 GiB"))
            directory.append16(try narrowed(member.name.count, "a file name of \(member.name.count) bytes"))
            directory.append16(0)  // extra field
            directory.append16(0)  // comment
            directory.append16(0)  // disk
            directory.append16(0)  // internal attributes
            directory.append32(0)  // external attributes
            directory.append32(try narrowed(member.offset, "more than 4 GiB"))
            directory.bytes += member.name
        }
        bytes += try counted(directory.bytes)
        var end = LittleEndianBytes()
        end.append32(0x0605_4b50)
        end.append16(0)
        end.append16(0)
        let count: UInt16 = try narrowed(members.count, "more than 65,535 files")
        end.append16(count)
        end.append16(count)
        end.append32(try narrowed(written - directoryStart, "more than 4 GiB"))
        end.append32(try narrowed(directoryStart, "more than 4 GiB"))
        end.append16(0)
        return bytes + (try counted(end.bytes))
    }

    /// Counts bytes into the archive's length, refusing an archive past what 32-bit offsets reach.
    private mutating func counted(_ bytes: [UInt8]) throws -> [UInt8] {
        written += UInt64(bytes.count)
        guard written <= limits.bytes else { throw Failure.tooLarge("more than \(limits.bytes) bytes") }
        return bytes
    }

    /// A value in a narrower field, or `tooLarge` naming `what` when it does not fit.
    private func narrowed<Wide: BinaryInteger, Narrow: FixedWidthInteger>(_ value: Wide, _ what: String) throws -> Narrow {
        guard let narrow = Narrow(exactly: value) else { throw Failure.tooLarge(what) }
        return narrow
    }
}

private struct LittleEndianBytes {
    var bytes: [UInt8] = []

    mutating func append16(_ value: UInt16) {
        bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    mutating func append32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
